// A stored credential reaching a real provider call: as `apiKey` for an OpenAI-compatible vendor,
// as a refreshed bearer `accessToken` for Vertex AI.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createMemoryCredentialStore, resolveStreamCredentials } from "../../src/credentials/index.js";
import { streamGoogleVertex } from "../../src/providers/google-vertex/index.js";
import { streamOpenAICompletions } from "../../src/providers/openai-completions/index.js";
import { userMessage } from "../helpers/messages.js";
import { useWireTestServer } from "../helpers/wire-server.js";
import { textAnswer, vertexModel } from "../providers/google-generative-ai/fixtures.js";
import { serverModel, textStream } from "../providers/openai-completions/fixtures.js";
import { type OAuthTestServer, sendJson, startOAuthTestServer } from "./oauth-test-server.js";

const wire = useWireTestServer();
const context = { messages: [userMessage("Hi")] };
let tokenServer: OAuthTestServer;

beforeEach(async () => {
	tokenServer = await startOAuthTestServer();
	vi.stubEnv("OPENROUTER_API_KEY", "sk-or-environment");
	vi.stubEnv("GOOGLE_CLOUD_API_KEY", "");
});
afterEach(async () => {
	vi.unstubAllEnvs();
	await tokenServer.close();
});

describe("stored credentials in provider calls", () => {
	it("sends a stored API key in place of the environment's", async () => {
		const store = createMemoryCredentialStore({ openrouter: { type: "api-key", key: "sk-or-stored-key" } });
		wire.server.enqueue({ body: textStream("ok") });
		const model = serverModel(wire.server.url, { provider: "openrouter" });
		const credentials = await resolveStreamCredentials(model.provider, { store });
		const result = await streamOpenAICompletions(model, context, { ...credentials, maxRetries: 0 }).result();
		expect(result.stopReason, result.errorMessage).toBe("stop");
		expect(wire.server.requests[0].headers.authorization).toBe("Bearer sk-or-stored-key");
	});

	it("sends a stored Vertex AI OAuth token as a bearer, refreshed first when it is about to expire", async () => {
		tokenServer.route("/token", (_request, response) =>
			sendJson(response, 200, { access_token: "ya29.refreshed", expires_in: 3600, token_type: "Bearer" }),
		);
		const store = createMemoryCredentialStore({
			"google-vertex": {
				type: "oauth",
				access: "ya29.expiring",
				refresh: "1//refresh",
				expiresAt: Date.now() + 5_000,
				tokenUrl: `${tokenServer.url}/token`,
				clientId: "client",
			},
		});
		wire.server.enqueue({ body: textAnswer(["ok"]) });
		const credentials = await resolveStreamCredentials("google-vertex", { store });
		expect(credentials.apiKey).toBeUndefined();
		const result = await streamGoogleVertex(vertexModel({ baseUrl: wire.server.url }), context, {
			...credentials,
			project: "proj",
			location: "us-central1",
			maxRetries: 0,
		}).result();
		expect(result.stopReason, result.errorMessage).toBe("stop");
		expect(wire.server.requests[0].headers.authorization).toBe("Bearer ya29.refreshed");
		expect(wire.server.requests[0].headers["x-goog-api-key"]).toBeUndefined();
		expect(tokenServer.requests).toHaveLength(1);
	});

	it("leaves the options empty when nothing is found, so the call reports the missing key", async () => {
		expect(await resolveStreamCredentials("mistral", { store: createMemoryCredentialStore() })).toEqual({});
	});
});
