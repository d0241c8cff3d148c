// A Models collection resolves each provider's auth itself and passes the key per call: two
// collections never share credentials, and every failure arrives as the stream's error event.
import { describe, expect, it } from "vitest";
import {
	createModels,
	createProvider,
	envApiKeyAuth,
	hasApi,
	InMemoryCredentialStore,
	InMemoryModelsStore,
	type ModelsOAuthCredential,
	type ProviderStreams,
} from "../../src/index.js";
import { fauxProvider } from "../../src/testing/index.js";
import type { Api, Context, Model, StreamOptions } from "../../src/types.js";
import { createAssistantMessageEventStream, createEmptyAssistantMessage } from "../../src/utils/event-stream.js";

const context: Context = { messages: [{ role: "user", content: "hi", timestamp: 1 }] };

function model(provider: string, id = "m1", api: Api = "recording-api"): Model<Api> {
	return {
		id,
		name: id,
		api,
		provider,
		baseUrl: "http://127.0.0.1:9",
		reasoning: false,
		input: ["text"],
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
		contextWindow: 1000,
		maxTokens: 100,
	};
}

/** Streams that answer with the api key and base URL they were given, so a test sees what auth sent. */
function recordingStreams(
	seen: { apiKey?: string; baseUrl: string; headers?: Record<string, string> }[],
): ProviderStreams {
	const answer = (target: Model<Api>, options?: StreamOptions) => {
		seen.push({ apiKey: options?.apiKey, baseUrl: target.baseUrl, headers: target.headers });
		const stream = createAssistantMessageEventStream();
		const message = createEmptyAssistantMessage(target.api, target.provider, target.id);
		stream.push({ type: "start", partial: message });
		stream.push({ type: "done", reason: "stop", message: { ...message, content: [{ type: "text", text: "ok" }] } });
		stream.end();
		return stream;
	};
	return {
		stream: (target, _context, options) => answer(target, options),
		streamSimple: (target, _context, options) => answer(target, options),
	};
}

function keyedProvider(seen: Parameters<typeof recordingStreams>[0], envVariable = "KEEL_TEST_UNSET_KEY") {
	return createProvider({
		id: "tenant-api",
		auth: { apiKey: envApiKeyAuth("Tenant key", [envVariable]) },
		models: [model("tenant-api")],
		api: recordingStreams(seen),
	});
}

describe("createModels: per-collection credentials", () => {
	it("two collections with the same provider send their own stored keys", async () => {
		const seen: Parameters<typeof recordingStreams>[0] = [];
		const tenantA = createModels({
			credentials: new InMemoryCredentialStore({ "tenant-api": { type: "api_key", key: "key-a" } }),
		});
		const tenantB = createModels({
			credentials: new InMemoryCredentialStore({ "tenant-api": { type: "api_key", key: "key-b" } }),
		});
		tenantA.setProvider(keyedProvider(seen));
		tenantB.setProvider(keyedProvider(seen));
		const target = tenantA.getModel("tenant-api", "m1") as Model<Api>;
		await Promise.all([tenantA.complete(target, context), tenantB.complete(target, context)]);
		expect(seen.map((call) => call.apiKey).sort()).toEqual(["key-a", "key-b"]);
	});

	it("falls back to the provider's env variable through the collection's auth context", async () => {
		const seen: Parameters<typeof recordingStreams>[0] = [];
		const models = createModels({
			authContext: { env: async (name) => (name === "TENANT_KEY" ? "from-env" : undefined) },
		});
		models.setProvider(keyedProvider(seen, "TENANT_KEY"));
		const result = await models.complete(models.getModel("tenant-api", "m1") as Model<Api>, context);
		expect(result.stopReason).toBe("stop");
		expect(seen[0]?.apiKey).toBe("from-env");
		expect(await models.checkAuth("tenant-api")).toEqual({ type: "api_key", source: "TENANT_KEY" });
	});

	it("an explicit options.apiKey wins over the collection's credential", async () => {
		const seen: Parameters<typeof recordingStreams>[0] = [];
		const models = createModels({
			credentials: new InMemoryCredentialStore({ "tenant-api": { type: "api_key", key: "stored" } }),
		});
		models.setProvider(keyedProvider(seen));
		await models.complete(models.getModel("tenant-api", "m1") as Model<Api>, context, { apiKey: "explicit" });
		expect(seen[0]?.apiKey).toBe("explicit");
	});

	it("no credential is an error event naming the provider, not a throw", async () => {
		const seen: Parameters<typeof recordingStreams>[0] = [];
		const models = createModels({ authContext: { env: async () => undefined } });
		models.setProvider(keyedProvider(seen));
		const result = await models.complete(models.getModel("tenant-api", "m1") as Model<Api>, context);
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toContain('No credentials for provider "tenant-api"');
		expect(seen).toHaveLength(0);
		expect(await models.getAvailable()).toEqual([]);
	});

	it("a model of a provider the collection lacks is an error event listing what is registered", async () => {
		const models = createModels();
		const events = [];
		for await (const event of models.stream(model("elsewhere"), context)) events.push(event.type);
		expect(events).toEqual(["start", "error"]);
		const result = await models.complete(model("elsewhere"), context);
		expect(result.errorMessage).toContain('No provider "elsewhere" in this collection');
	});

	it("an auth that throws becomes an error event carrying its message", async () => {
		const models = createModels();
		models.setProvider(
			createProvider({
				id: "broken",
				auth: {
					apiKey: {
						name: "Broken",
						resolve: async () => {
							throw new Error("vault said no for sk-secret-1234567890");
						},
					},
				},
				models: [model("broken")],
				api: recordingStreams([]),
			}),
		);
		const result = await models.complete(model("broken"), context);
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toContain("vault said no");
	});

	it("auth may move the endpoint and add headers per tenant", async () => {
		const seen: Parameters<typeof recordingStreams>[0] = [];
		const models = createModels();
		models.setProvider(
			createProvider({
				id: "gateway",
				headers: { "x-team": "core" },
				auth: {
					apiKey: {
						name: "Gateway",
						resolve: async () => ({
							auth: { apiKey: "g", baseUrl: "http://127.0.0.1:1/tenant", headers: { "x-tenant": "7" } },
						}),
					},
				},
				models: [model("gateway")],
				api: recordingStreams(seen),
			}),
		);
		await models.complete(model("gateway"), context);
		expect(seen[0]).toEqual({
			apiKey: "g",
			baseUrl: "http://127.0.0.1:1/tenant",
			headers: { "x-team": "core", "x-tenant": "7" },
		});
	});
});

describe("createModels: OAuth and login", () => {
	it("refreshes an expired token once even when two calls race, and stores the new one", async () => {
		let refreshes = 0;
		const seen: Parameters<typeof recordingStreams>[0] = [];
		const credentials = new InMemoryCredentialStore({
			subscription: { type: "oauth", access: "old", refresh: "r1", expires: 0 },
		});
		const models = createModels({ credentials });
		models.setProvider(
			createProvider({
				id: "subscription",
				auth: {
					oauth: {
						name: "Subscription",
						login: async () => ({ type: "oauth", access: "a", refresh: "r", expires: Date.now() + 60_000 }),
						refresh: async (credential) => {
							refreshes++;
							return { ...credential, access: `new-${refreshes}`, expires: Date.now() + 60_000 };
						},
						toAuth: async (credential: ModelsOAuthCredential) => ({ apiKey: credential.access }),
					},
				},
				models: [model("subscription")],
				api: recordingStreams(seen),
			}),
		);
		await Promise.all([
			models.complete(model("subscription"), context),
			models.complete(model("subscription"), context),
		]);
		expect(refreshes).toBe(1);
		expect(seen.map((call) => call.apiKey)).toEqual(["new-1", "new-1"]);
		expect(await credentials.read("subscription")).toMatchObject({ type: "oauth", access: "new-1" });
	});

	it("login stores the entered key and logout removes it", async () => {
		const credentials = new InMemoryCredentialStore();
		const models = createModels({ credentials, authContext: { env: async () => undefined } });
		models.setProvider(keyedProvider([]));
		const interaction = { prompt: async () => "  typed-key ", notify: () => {} };
		await models.login("tenant-api", "api_key", interaction);
		expect(await credentials.read("tenant-api")).toEqual({ type: "api_key", key: "typed-key" });
		expect(await models.getAvailable("tenant-api")).toHaveLength(1);
		await models.logout("tenant-api");
		expect(await credentials.list()).toEqual([]);
		await expect(models.login("tenant-api", "oauth", interaction)).rejects.toThrow("has no oauth login");
	});
});

describe("createModels: fetched model lists", () => {
	it("refresh fetches and persists; a later collection restores the list offline", async () => {
		const modelsStore = new InMemoryModelsStore();
		let fetches = 0;
		const dynamicProvider = () =>
			createProvider({
				id: "local",
				auth: { apiKey: { name: "Local", resolve: async () => ({ auth: {} }) } },
				models: [],
				fetchModels: async () => {
					fetches++;
					return [model("local", "fetched")];
				},
				api: recordingStreams([]),
			});
		const online = createModels({ modelsStore });
		online.setProvider(dynamicProvider());
		const result = await online.refresh();
		expect(result).toEqual({ aborted: false, errors: new Map() });
		expect(online.getModels("local").map((entry) => entry.id)).toEqual(["fetched"]);

		const offline = createModels({ modelsStore });
		offline.setProvider(dynamicProvider());
		await offline.refresh({ allowNetwork: false });
		expect(offline.getModels("local").map((entry) => entry.id)).toEqual(["fetched"]);
		expect(fetches).toBe(1);
	});

	it("a failing fetch is reported per provider and keeps the old list", async () => {
		const models = createModels();
		models.setProvider(
			createProvider({
				id: "flaky",
				auth: { apiKey: { name: "Flaky", resolve: async () => ({ auth: {} }) } },
				models: [model("flaky", "static")],
				fetchModels: async () => {
					throw new Error("list endpoint down");
				},
				api: recordingStreams([]),
			}),
		);
		const result = await models.refresh();
		expect(result.errors.get("flaky")?.message).toBe("list endpoint down");
		expect(models.getModels("flaky").map((entry) => entry.id)).toEqual(["static"]);
	});
});

describe("createProvider", () => {
	it("rejects a provider without auth or api with what to fix", () => {
		expect(() => createProvider({ id: "x", auth: {}, models: [], api: recordingStreams([]) })).toThrow(
			"auth needs apiKey or oauth",
		);
		expect(() =>
			createProvider({ id: "x", auth: { apiKey: envApiKeyAuth("X", []) }, models: [], api: undefined as never }),
		).toThrow("api is required");
		expect(() => createProvider({ id: "", auth: {}, models: [], api: recordingStreams([]) })).toThrow("id must be");
	});

	it("dispatches per model api, and a model of an api it lacks gets an error event", async () => {
		const first: Parameters<typeof recordingStreams>[0] = [];
		const models = createModels();
		models.setProvider(
			createProvider({
				id: "mixed",
				auth: { apiKey: { name: "Mixed", resolve: async () => ({ auth: {} }) } },
				models: [model("mixed", "a", "api-one"), model("mixed", "b", "api-two")],
				api: { "api-one": recordingStreams(first) },
			}),
		);
		expect((await models.complete(model("mixed", "a", "api-one"), context)).stopReason).toBe("stop");
		const missing = await models.complete(model("mixed", "b", "api-two"), context);
		expect(missing.errorMessage).toContain('has no implementation for api "api-two"');
		expect(first).toHaveLength(1);
	});

	it("hasApi narrows by api and rejects a missing model", () => {
		expect(hasApi(model("p", "a", "openai-completions"), "openai-completions")).toBe(true);
		expect(hasApi(model("p", "a", "openai-completions"), "anthropic-messages")).toBe(false);
		expect(hasApi(undefined, "anthropic-messages")).toBe(false);
	});
});

describe("fauxProvider in a collection", () => {
	it("two faux handles in two collections keep separate queues and no global registration", async () => {
		const first = fauxProvider({ provider: "faux-one" });
		const second = fauxProvider({ provider: "faux-two" });
		const models = createModels();
		models.setProvider(first.provider);
		models.setProvider(second.provider);
		first.setResponses(["from one"]);
		second.setResponses(["from two"]);
		const [one, two] = await Promise.all([
			models.complete(first.getModel(), context),
			models.complete(second.getModel(), context),
		]);
		expect(one.content).toEqual([{ type: "text", text: "from one" }]);
		expect(two.content).toEqual([{ type: "text", text: "from two" }]);
		expect(first.state.callCount).toBe(1);
		expect(second.getPendingResponseCount()).toBe(0);
	});
});
