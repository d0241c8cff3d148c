// End to end: the Azure provider against the local wire-test server.
import { afterEach, describe, expect, it, vi } from "vitest";
import { completeSimple } from "../../../src/index.js";
import {
	streamAzureOpenAIResponses,
	streamSimpleAzureOpenAIResponses,
} from "../../../src/providers/azure-openai-responses/index.js";
import type { Context } from "../../../src/types.js";
import { useWireTestServer } from "../../helpers/wire-server.js";
import {
	azureModel,
	completed,
	created,
	functionCallEvents,
	messageEvents,
	reasoningEvents,
	responsesSse,
} from "../openai-responses/fixtures.js";

const API_KEY = "azure-secret-key-456";
const wire = useWireTestServer();

afterEach(() => {
	vi.unstubAllEnvs();
});

const context: Context = { systemPrompt: "Be brief.", messages: [{ role: "user", content: "Hi", timestamp: 1 }] };
const okBody = () => responsesSse([created(), ...messageEvents(0, ["Hello from Azure"]), completed()]);

describe("azure-openai-responses over the wire", () => {
	it("sends the deployment as model, the api-version query and the api-key header to azureBaseUrl", async () => {
		vi.stubEnv("OPENAI_ORG_ID", "org-for-openai-only");
		wire.server.enqueue({ body: okBody() });
		const result = await streamAzureOpenAIResponses(azureModel(), context, {
			apiKey: API_KEY,
			azureBaseUrl: `${wire.server.url}/openai/v1/`,
			azureDeploymentName: "my-deployment",
			azureApiVersion: "2025-04-01-preview",
			maxRetries: 0,
		}).result();
		expect(result.content[0]).toMatchObject({ text: "Hello from Azure" });
		expect(result.api).toBe("azure-openai-responses");
		const request = wire.server.lastRequest;
		expect(request?.url).toBe("/openai/v1/responses?api-version=2025-04-01-preview");
		expect(request?.headers["api-key"]).toBe(API_KEY);
		expect(request?.headers.authorization).toBeUndefined();
		expect(request?.headers["openai-organization"]).toBeUndefined();
		expect(request?.json).toMatchObject({ model: "my-deployment", stream: true, store: false });
	});

	it("resolves URL, version, deployment and key from the environment", async () => {
		vi.stubEnv("AZURE_OPENAI_BASE_URL", `${wire.server.url}/env-path/v1`);
		vi.stubEnv("AZURE_OPENAI_DEPLOYMENT_NAME_MAP", "gpt-test=env-deployment");
		vi.stubEnv("AZURE_OPENAI_API_VERSION", "preview");
		vi.stubEnv("AZURE_OPENAI_API_KEY", API_KEY);
		wire.server.enqueue({ body: okBody() });
		const result = await streamAzureOpenAIResponses(azureModel(), context, { maxRetries: 0 }).result();
		expect(result.stopReason).toBe("stop");
		expect(wire.server.lastRequest?.url).toBe("/env-path/v1/responses?api-version=preview");
		expect(wire.server.lastRequest?.headers["api-key"]).toBe(API_KEY);
		expect(wire.server.lastRequest?.json).toMatchObject({ model: "env-deployment" });
	});

	it("defaults to api-version v1, the model id as deployment and model.baseUrl", async () => {
		wire.server.enqueue({ body: okBody() });
		await streamAzureOpenAIResponses(azureModel({ baseUrl: `${wire.server.url}/openai/v1` }), context, {
			apiKey: API_KEY,
			maxRetries: 0,
		}).result();
		expect(wire.server.lastRequest?.url).toBe("/openai/v1/responses?api-version=v1");
		expect(wire.server.lastRequest?.json).toMatchObject({ model: "gpt-test" });
	});

	it("runs through the registry (completeSimple) with Azure options", async () => {
		wire.server.enqueue({ body: okBody() });
		const result = await completeSimple(azureModel(), context, {
			apiKey: API_KEY,
			maxRetries: 0,
			azureBaseUrl: wire.server.url,
			azureDeploymentName: "registry-dep",
		} as Parameters<typeof completeSimple>[2]);
		expect(result.content[0]).toMatchObject({ text: "Hello from Azure" });
		expect(wire.server.lastRequest?.url).toBe("/responses?api-version=v1");
		expect(wire.server.lastRequest?.json).toMatchObject({ model: "registry-dep" });
	});

	it("ends with a clear error and sends nothing when no endpoint is configured", async () => {
		const result = await streamAzureOpenAIResponses(azureModel(), context, { apiKey: API_KEY, maxRetries: 3 }).result();
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toMatch(/^No Azure OpenAI endpoint for model "gpt-test": set AZURE_OPENAI_BASE_URL/);
		expect(wire.server.requests).toHaveLength(0);
	});

	it("ends with a clear error when no key is set", async () => {
		const result = await streamAzureOpenAIResponses(azureModel({ baseUrl: wire.server.url }), context).result();
		expect(result.errorMessage).toBe(
			'No API key for provider "azure-openai-responses": set AZURE_OPENAI_API_KEY or pass options.apiKey',
		);
	});

	it("decodes reasoning and tool calls like OpenAI and maps the unified reasoning level", async () => {
		wire.server.enqueue({
			body: responsesSse([
				created(),
				...reasoningEvents(0, [["plan"]], { encrypted: "ENC" }),
				...functionCallEvents(1, "read", ['{"p":1}'], { callId: "call_z", id: "fc_z" }),
				completed(),
			]),
		});
		const result = await streamSimpleAzureOpenAIResponses(
			azureModel({ reasoning: true, baseUrl: `${wire.server.url}/openai/v1` }),
			context,
			{ apiKey: API_KEY, reasoning: "xhigh", maxRetries: 0, azureDeploymentName: "dep" },
		).result();
		expect(result.stopReason).toBe("toolUse");
		expect(result.content.map((block) => block.type)).toEqual(["thinking", "toolCall"]);
		expect(result.content[1]).toMatchObject({ id: "call_z|fc_z", arguments: { p: 1 } });
		expect(wire.server.lastRequest?.json).toMatchObject({
			model: "dep",
			reasoning: { effort: "high", summary: "auto" },
			include: ["reasoning.encrypted_content"],
			input: [{ role: "developer" }, { role: "user" }],
		});
	});

	it("reports HTTP errors with Azure's message and never the key", async () => {
		wire.server.enqueue({
			status: 401,
			body: { error: { code: "401", message: `Access denied due to invalid subscription key ${API_KEY}.` } },
		});
		const result = await streamAzureOpenAIResponses(azureModel({ baseUrl: wire.server.url }), context, {
			apiKey: API_KEY,
			maxRetries: 0,
		}).result();
		expect(result.errorMessage).toContain("401 Access denied due to invalid subscription key [redacted].");
	});

	it("names Azure in errors from the stream", async () => {
		wire.server.enqueue({
			body: responsesSse([
				created(),
				{ type: "error", code: "invalid_prompt", message: "Blocked by policy", param: null },
			]),
		});
		const result = await streamAzureOpenAIResponses(azureModel({ baseUrl: wire.server.url }), context, {
			apiKey: API_KEY,
			maxRetries: 0,
		}).result();
		expect(result.errorMessage).toBe("Azure OpenAI stream error invalid_prompt: Blocked by policy");
	});
});
