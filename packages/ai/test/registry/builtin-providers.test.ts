// Built-in providers in a collection speak the real wire format and send the collection's key, so
// per-tenant keys reach the server without any global state or environment variable.
import { describe, expect, it } from "vitest";
import { builtinModels, builtinProvider, createModels, InMemoryCredentialStore } from "../../src/index.js";
import { useWireTestServer } from "../helpers/wire-server.js";
import { serverModel, textStream } from "../providers/openai-completions/fixtures.js";

const wire = useWireTestServer();
const context = { messages: [{ role: "user" as const, content: "hi", timestamp: 1 }] };

describe("built-in providers in a collection", () => {
	it("each tenant's stored key is the bearer token of its own request", async () => {
		const tenant = (key: string) => {
			const models = createModels({ credentials: new InMemoryCredentialStore({ openai: { type: "api_key", key } }) });
			models.setProvider(builtinProvider("openai"));
			return models;
		};
		const model = serverModel(wire.server.url, { provider: "openai" });
		wire.server.enqueue({ body: textStream("for a") }, { body: textStream("for b") });
		const first = await tenant("tenant-a-key").complete(model, context);
		const second = await tenant("tenant-b-key").complete(model, context);
		expect([first.stopReason, second.stopReason]).toEqual(["stop", "stop"]);
		expect(wire.server.requests.map((request) => request.headers.authorization)).toEqual([
			"Bearer tenant-a-key",
			"Bearer tenant-b-key",
		]);
	});

	it("builtinModels holds every catalogue provider and lists their models synchronously", () => {
		const models = builtinModels({ authContext: { env: async () => undefined } });
		expect(models.getProvider("anthropic")?.id).toBe("anthropic");
		expect(models.getModels("openai").length).toBeGreaterThan(0);
		expect(models.getModel("openai", "no-such-model")).toBeUndefined();
	});

	it("builtinProvider refuses an unknown id with the known ones", () => {
		expect(() => builtinProvider("no-such-provider")).toThrow(/unknown provider "no-such-provider"\. Known: .*openai/);
	});
});
