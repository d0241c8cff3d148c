// What a browser or Worker bundle of @keel/ai does where Node would use a Node-only module: each
// module listed in package.json "imports" is replaced here by its `.browser.ts` variant, as the
// package's "browser" condition replaces it in a bundle (tests/runtimes checks the bundles).
import { afterEach, describe, expect, it, vi } from "vitest";
import { streamOpenAICodexResponses } from "../../src/providers/openai-codex-responses/index.js";
import type { Context } from "../../src/types.js";
import { useWireTestServer } from "../helpers/wire-server.js";
import { codexModel, TOKEN } from "./openai-codex-responses/fixtures.js";
import { completed, created, messageEvents, responsesSse } from "./openai-responses/fixtures.js";

vi.mock(
	"../../src/providers/openai-codex-responses/websocket-session.js",
	() => import("../../src/providers/openai-codex-responses/websocket-session.browser.js"),
);
vi.mock(
	"../../src/providers/bedrock-converse-stream/node-credential-chain.js",
	() => import("../../src/providers/bedrock-converse-stream/node-credential-chain.browser.js"),
);
vi.mock(
	"../../src/providers/google-vertex/application-default-credentials.js",
	() => import("../../src/providers/google-vertex/application-default-credentials.browser.js"),
);
vi.mock(
	"../../src/providers/google-vertex/metadata-server-token.js",
	() => import("../../src/providers/google-vertex/metadata-server-token.browser.js"),
);

const wire = useWireTestServer();
const context: Context = { messages: [{ role: "user", content: "Hi", timestamp: 1 }] };

afterEach(() => {
	vi.unstubAllEnvs();
});

describe("the browser variant of the Codex WebSocket transport", () => {
	it('sends over server-sent events with transport "auto", saying why in diagnostics, and opens no socket', async () => {
		wire.server.enqueue({ body: responsesSse([created(), ...messageEvents(0, ["over SSE"]), completed()]) });
		const result = await streamOpenAICodexResponses(codexModel(wire.server.url), context, {
			apiKey: TOKEN,
			transport: "auto",
			maxRetries: 0,
		}).result();
		expect(result.content[0]).toMatchObject({ type: "text", text: "over SSE" });
		expect(wire.server.requests.map((request) => request.method)).toEqual(["POST"]);
		expect(result.diagnostics?.[0]).toMatchObject({ type: "websocket_fallback" });
		expect(result.diagnostics?.[0].error?.message).toContain("cannot send the Authorization header");
	});

	it('ends a call with transport "websocket" with one error that says to use "sse"', async () => {
		const result = await streamOpenAICodexResponses(codexModel(wire.server.url), context, {
			apiKey: TOKEN,
			transport: "websocket",
			maxRetries: 0,
		}).result();
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toContain('use transport "sse"');
		expect(wire.server.requests).toEqual([]);
	});
});

describe("the browser variants of the credential lookups", () => {
	it("Bedrock without credentials in the options or the environment asks for them and reads no file", async () => {
		for (const name of ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_PROFILE"]) vi.stubEnv(name, "");
		const { resolveSigningCredentials } = await import(
			"../../src/providers/bedrock-converse-stream/signing-credentials.js"
		);
		await expect(resolveSigningCredentials({})).rejects.toThrow(
			"the AWS credential chain (profiles, SSO, container and instance roles) runs on Node only; pass accessKeyId and secretAccessKey",
		);
	});

	it("Bedrock finds no profile region", async () => {
		const { readProfileRegion } = await import("../../src/providers/bedrock-converse-stream/profile-region.browser.js");
		await expect(readProfileRegion("default")).resolves.toBeUndefined();
	});

	it("Vertex AI without a token, credentials or a key lists what to pass, without asking a metadata server", async () => {
		vi.stubEnv("GOOGLE_APPLICATION_CREDENTIALS", "/nonexistent/key.json");
		const fetchSpy = vi.spyOn(globalThis, "fetch");
		const { vertexAccessToken } = await import("../../src/providers/google-vertex/credentials.js");
		await expect(vertexAccessToken({}, () => {})).rejects.toThrow(
			"Vertex AI found no credentials: pass options.accessToken",
		);
		expect(fetchSpy).not.toHaveBeenCalled();
		fetchSpy.mockRestore();
	});
});
