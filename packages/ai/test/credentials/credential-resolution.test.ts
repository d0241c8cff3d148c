import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
	CredentialError,
	createApiKeyResolver,
	createMemoryCredentialStore,
	findApiKey,
	listCredentials,
	maskSecret,
	type OAuthCredential,
	resolveApiKey,
} from "../../src/credentials/index.js";
import { type OAuthTestServer, sendJson, startOAuthTestServer } from "./oauth-test-server.js";

const NOW = 1_800_000_000_000;
const now = () => NOW;
let server: OAuthTestServer;

beforeEach(async () => {
	server = await startOAuthTestServer();
	vi.stubEnv("OPENROUTER_API_KEY", "");
	vi.stubEnv("GROQ_API_KEY", "");
});
afterEach(async () => {
	vi.unstubAllEnvs();
	await server.close();
});

function expiringCredential(overrides: Partial<OAuthCredential> = {}): OAuthCredential {
	return {
		type: "oauth",
		access: "old-access-token-0123456789",
		refresh: "refresh-token-abcdefghijkl",
		expiresAt: NOW + 30_000,
		tokenUrl: `${server.url}/token`,
		clientId: "client-1",
		projectId: "kept-extra",
		...overrides,
	};
}

describe("the resolution order", () => {
	it("prefers the caller's apiKey, then the store, then the environment", async () => {
		vi.stubEnv("OPENROUTER_API_KEY", "from-environment");
		const store = createMemoryCredentialStore({ openrouter: { type: "api-key", key: "from-store" } });
		expect(await findApiKey("openrouter", { apiKey: "from-option", store })).toEqual({
			apiKey: "from-option",
			source: "option",
		});
		expect(await findApiKey("openrouter", { store })).toEqual({
			apiKey: "from-store",
			source: "store",
			credentialType: "api-key",
		});
		expect(await findApiKey("openrouter", { store: createMemoryCredentialStore() })).toEqual({
			apiKey: "from-environment",
			source: "environment",
		});
		expect(await resolveApiKey("openrouter", { useEnvironment: false })).toBeUndefined();
	});

	it("gives an Agent-style getApiKey function over a store", async () => {
		const getApiKey = createApiKeyResolver({
			store: createMemoryCredentialStore({ groq: { type: "api-key", key: "gsk-1" } }),
		});
		expect(await getApiKey("groq")).toBe("gsk-1");
		expect(await getApiKey("mistral")).toBeUndefined();
	});
});

describe("OAuth credentials in the store", () => {
	it("uses an access token that is not about to expire as it is, without a request", async () => {
		const store = createMemoryCredentialStore({ openrouter: expiringCredential({ expiresAt: NOW + 120_000 }) });
		expect(await resolveApiKey("openrouter", { store, now })).toBe("old-access-token-0123456789");
		expect(server.requests).toEqual([]);
	});

	it("refreshes a token that expires within 60 s and stores the new one with its extras", async () => {
		server.route("/token", (_request, response) =>
			sendJson(response, 200, { access_token: "new-access-token", expires_in: 3600, token_type: "Bearer" }),
		);
		const store = createMemoryCredentialStore({ openrouter: expiringCredential() });
		expect(await resolveApiKey("openrouter", { store, now })).toBe("new-access-token");
		expect(server.requests.map((request) => request.body)).toEqual([
			{ grant_type: "refresh_token", refresh_token: "refresh-token-abcdefghijkl", client_id: "client-1" },
		]);
		expect(await store.get("openrouter")).toMatchObject({
			access: "new-access-token",
			refresh: "refresh-token-abcdefghijkl",
			expiresAt: NOW + 3_600_000,
			projectId: "kept-extra",
		});
	});

	it("refreshes once when several callers find the token expiring at the same moment", async () => {
		server.route("/token", (_request, response) =>
			sendJson(response, 200, { access_token: "new-access-token", expires_in: 3600, token_type: "Bearer" }),
		);
		const store = createMemoryCredentialStore({ openrouter: expiringCredential() });
		const keys = await Promise.all([1, 2, 3].map(() => resolveApiKey("openrouter", { store, now })));
		expect(keys).toEqual(["new-access-token", "new-access-token", "new-access-token"]);
		expect(server.requests).toHaveLength(1);
	});

	it("fails a refused refresh with a clear error that holds no token, and leaves the stored credential as it was", async () => {
		server.route("/token", (_request, response) =>
			sendJson(response, 400, {
				error: "invalid_grant",
				error_description: "refresh token refresh-token-abcdefghijkl was revoked",
			}),
		);
		const credential = expiringCredential({ expiresAt: NOW - 1000 });
		const store = createMemoryCredentialStore({ openrouter: credential });
		const failure = await resolveApiKey("openrouter", { store, now }).catch((error: unknown) => error);
		expect(failure).toBeInstanceOf(CredentialError);
		const message = (failure as CredentialError).message;
		expect(message).toContain('provider "openrouter"');
		expect(message).toContain("invalid_grant");
		expect(message).toContain("keel login openrouter");
		expect(message).not.toContain("refresh-token-abcdefghijkl");
		expect(message).not.toContain("old-access-token");
		expect((failure as CredentialError).code).toBe("invalid_grant");
		expect(await store.get("openrouter")).toEqual(credential);
	});

	it("keeps using a token that has not yet expired when its refresh fails, and retries the refresh next time", async () => {
		server.route("/token", (_request, response) => sendJson(response, 503, { error: "temporarily_unavailable" }));
		const credential = expiringCredential();
		const store = createMemoryCredentialStore({ openrouter: credential });
		expect(await resolveApiKey("openrouter", { store, now })).toBe("old-access-token-0123456789");
		expect(await resolveApiKey("openrouter", { store, now })).toBe("old-access-token-0123456789");
		expect(server.requests).toHaveLength(2);
		expect(await store.get("openrouter")).toEqual(credential);
	});

	it("fails a token that has expired and cannot be refreshed, naming what to do", async () => {
		const store = createMemoryCredentialStore({
			anthropic: { type: "oauth", access: "sk-ant-oat-expired-123456", expiresAt: NOW - 1 },
		});
		await expect(resolveApiKey("anthropic", { store, now })).rejects.toThrow(
			/"anthropic" has expired and holds no refresh token.*keel login anthropic/,
		);
	});

	it("uses a token that expires soon but cannot be refreshed while it still works", async () => {
		const store = createMemoryCredentialStore({
			anthropic: { type: "oauth", access: "sk-ant-oat-soon", expiresAt: NOW + 10_000 },
		});
		expect(await resolveApiKey("anthropic", { store, now })).toBe("sk-ant-oat-soon");
	});
});

describe("the memory store", () => {
	it("rejects a malformed credential with a message that does not quote it", async () => {
		const store = createMemoryCredentialStore();
		// biome-ignore lint/suspicious/noExplicitAny: the wrong shape is the point
		await expect(store.set("groq", { type: "api-key", token: "gsk-secret-value" } as any)).rejects.toThrow(
			'Cannot store the credential for provider "groq": an "api-key" credential needs a non-empty string "key"',
		);
		// biome-ignore lint/suspicious/noExplicitAny: the wrong shape is the point
		await expect(store.set("groq", "gsk-secret-value" as any)).rejects.toThrow(/got a string$/);
	});

	it("lists, deletes and hands out copies", async () => {
		const store = createMemoryCredentialStore({ b: { type: "api-key", key: "k2" }, a: { type: "api-key", key: "k1" } });
		expect(await store.list()).toEqual(["a", "b"]);
		const copy = await store.get("a");
		if (copy?.type === "api-key") copy.key = "changed";
		expect(await store.get("a")).toEqual({ type: "api-key", key: "k1" });
		expect(await store.delete("a")).toBe(true);
		expect(await store.delete("a")).toBe(false);
		expect(await store.list()).toEqual(["b"]);
	});
});

describe("listing the credentials found", () => {
	it("shows stored and environment keys masked, the stored one used first", async () => {
		vi.stubEnv("OPENROUTER_API_KEY", "sk-or-v1-environment-key-9999");
		vi.stubEnv("GROQ_API_KEY", "gsk_environment_key_1234");
		const store = createMemoryCredentialStore({
			openrouter: { type: "api-key", key: "sk-or-v1-stored-key-abcd" },
			"google-vertex": expiringCredential({ access: "ya29.access-token-value-wxyz" }),
		});
		const found = await listCredentials({ store, providers: ["openrouter", "groq", "mistral"] });
		expect(found).toEqual([
			{
				provider: "google-vertex",
				source: "store",
				kind: "oauth",
				masked: "ya2…wxyz",
				expiresAt: NOW + 30_000,
				refreshable: true,
				used: true,
			},
			{
				provider: "groq",
				source: "environment",
				kind: "api-key",
				variable: "GROQ_API_KEY",
				masked: "gsk…1234",
				used: true,
			},
			{ provider: "openrouter", source: "store", kind: "api-key", masked: "sk-…abcd", used: true },
			{
				provider: "openrouter",
				source: "environment",
				kind: "api-key",
				variable: "OPENROUTER_API_KEY",
				masked: "sk-…9999",
				used: false,
			},
		]);
	});

	it("masks short secrets more", () => {
		expect(maskSecret("abcdefghij")).toBe("…ij");
		expect(maskSecret("abc")).toBe("…");
	});
});
