// What goes on the wire for each HTTP API: method, URL, and the headers Keel sets itself (the
// vendors' SDKs are not involved in sending).
import { afterEach, describe, expect, it, vi } from "vitest";
import { streamAnthropic } from "../../../src/providers/anthropic/index.js";
import { streamAzureOpenAIResponses } from "../../../src/providers/azure-openai-responses/index.js";
import { streamOpenAICompletions } from "../../../src/providers/openai-completions/index.js";
import { streamOpenAIResponses } from "../../../src/providers/openai-responses/index.js";
import type { RecordedRequest } from "../../../src/testing/wire-test-server.js";
import { userMessage } from "../../helpers/messages.js";
import { useWireTestServer } from "../../helpers/wire-server.js";
import { anthropicSse, claudeModel, textResponseEvents } from "../anthropic/fixtures.js";
import { localModel, serverModel, textStream } from "../openai-completions/fixtures.js";
import {
	azureModel,
	completed,
	created,
	messageEvents,
	responsesModel,
	responsesSse,
} from "../openai-responses/fixtures.js";
import { API_CASES, TEST_KEY } from "./api-cases.js";

const wire = useWireTestServer();
const context = { messages: [userMessage("Hi")] };
const responsesBody = () => responsesSse([created(), ...messageEvents(0, ["ok"]), completed()]);

afterEach(() => {
	vi.unstubAllEnvs();
});

async function sent(run: () => { result(): Promise<{ stopReason: string; errorMessage?: string }> }, body: string) {
	wire.server.enqueue({ body });
	const result = await run().result();
	expect(result.errorMessage).toBeUndefined();
	const request = wire.server.lastRequest;
	if (!request) throw new Error("no request recorded");
	return request;
}

/** The headers an SDK would have added and Keel does not send. */
function sdkHeaders(request: RecordedRequest): string[] {
	return Object.keys(request.headers).filter((name) => name.startsWith("x-stainless"));
}

describe.each(API_CASES)("$name request", (api) => {
	it("is a POST of the JSON body with stream: true to the API's path", async () => {
		const request = await sent(() => api.stream(wire.server.url, { apiKey: TEST_KEY }), api.okBody());
		expect(request.method).toBe("POST");
		expect(request.url).toBe(api.path);
		expect(request.headers["content-type"]).toBe("application/json");
		expect(request.headers.accept).toBe(api.accept ?? "application/json");
		expect((request.json as { stream?: unknown }).stream).toBe(api.streamFlagInBody === false ? undefined : true);
		expect(sdkHeaders(request)).toEqual([]);
	});

	it("lets options.headers replace a header whatever its case, sending one value", async () => {
		const request = await sent(
			() =>
				api.stream(wire.server.url, { apiKey: TEST_KEY, headers: { Accept: "text/event-stream", "X-Trace": "t1" } }),
			api.okBody(),
		);
		expect(request.headers.accept).toBe("text/event-stream");
		expect(request.headers["x-trace"]).toBe("t1");
	});
});

describe("anthropic-messages credentials and version", () => {
	it("sends an API key as x-api-key with anthropic-version 2023-06-01", async () => {
		const request = await sent(
			() => streamAnthropic(claudeModel({ baseUrl: `${wire.server.url}/` }), context, { apiKey: TEST_KEY }),
			anthropicSse(textResponseEvents(["ok"])),
		);
		expect(request.url).toBe("/v1/messages");
		expect(request.headers["x-api-key"]).toBe(TEST_KEY);
		expect(request.headers.authorization).toBeUndefined();
		expect(request.headers["anthropic-version"]).toBe("2023-06-01");
		expect(request.headers["anthropic-dangerous-direct-browser-access"]).toBe("true");
	});

	it("sends OAuth and GitHub Copilot tokens as Authorization: Bearer, without x-api-key", async () => {
		const oauth = await sent(
			() => streamAnthropic(claudeModel({ baseUrl: wire.server.url }), context, { apiKey: "sk-ant-oat01-token" }),
			anthropicSse(textResponseEvents(["ok"])),
		);
		expect(oauth.headers.authorization).toBe("Bearer sk-ant-oat01-token");
		expect(oauth.headers["x-api-key"]).toBeUndefined();
		const copilot = await sent(
			() =>
				streamAnthropic(claudeModel({ baseUrl: wire.server.url, provider: "github-copilot" }), context, {
					apiKey: "ghu_copilot",
				}),
			anthropicSse(textResponseEvents(["ok"])),
		);
		expect(copilot.headers.authorization).toBe("Bearer ghu_copilot");
		expect(copilot.headers["x-api-key"]).toBeUndefined();
	});
});

describe("OpenAI-style credentials", () => {
	it("Chat Completions: Bearer key, and OPENAI_ORG_ID / OPENAI_PROJECT_ID for OpenAI only", async () => {
		vi.stubEnv("OPENAI_ORG_ID", "org-123");
		vi.stubEnv("OPENAI_PROJECT_ID", "proj-456");
		const openai = await sent(
			() => streamOpenAICompletions(serverModel(wire.server.url), context, { apiKey: TEST_KEY }),
			textStream("ok"),
		);
		expect(openai.headers.authorization).toBe(`Bearer ${TEST_KEY}`);
		expect(openai.headers["openai-organization"]).toBe("org-123");
		expect(openai.headers["openai-project"]).toBe("proj-456");
		const groq = await sent(
			() => streamOpenAICompletions(serverModel(wire.server.url, { provider: "groq" }), context, { apiKey: TEST_KEY }),
			textStream("ok"),
		);
		expect(groq.headers.authorization).toBe(`Bearer ${TEST_KEY}`);
		expect(groq.headers["openai-organization"]).toBeUndefined();
		expect(groq.headers["openai-project"]).toBeUndefined();
	});

	it("Chat Completions: no Authorization header at all without a key", async () => {
		const request = await sent(() => streamOpenAICompletions(localModel(wire.server.url), context), textStream("ok"));
		expect(request.headers.authorization).toBeUndefined();
	});

	it("Chat Completions: a base URL with a trailing slash still posts to /chat/completions", async () => {
		const request = await sent(
			() => streamOpenAICompletions(serverModel(`${wire.server.url}/v1/`), context, { apiKey: TEST_KEY }),
			textStream("ok"),
		);
		expect(request.url).toBe("/v1/chat/completions");
	});

	it("Responses: Bearer key and the OpenAI organization headers", async () => {
		vi.stubEnv("OPENAI_ORG_ID", "org-123");
		const request = await sent(
			() => streamOpenAIResponses(responsesModel({ baseUrl: wire.server.url }), context, { apiKey: TEST_KEY }),
			responsesBody(),
		);
		expect(request.url).toBe("/responses");
		expect(request.headers.authorization).toBe(`Bearer ${TEST_KEY}`);
		expect(request.headers["openai-organization"]).toBe("org-123");
	});

	it("Azure: the key in api-key, api-version in the query, no Bearer and no OpenAI organization", async () => {
		vi.stubEnv("OPENAI_ORG_ID", "org-123");
		const request = await sent(
			() =>
				streamAzureOpenAIResponses(azureModel(), context, {
					apiKey: TEST_KEY,
					azureResourceName: "unused",
					azureBaseUrl: `${wire.server.url}/openai/v1`,
					azureApiVersion: "2025-04-01-preview",
				}),
			responsesBody(),
		);
		expect(request.url).toBe("/openai/v1/responses?api-version=2025-04-01-preview");
		expect(request.headers["api-key"]).toBe(TEST_KEY);
		expect(request.headers.authorization).toBeUndefined();
		expect(request.headers["openai-organization"]).toBeUndefined();
	});
});
