// Importing @keel/ai must not load any provider SDK: they are large (the OpenAI SDK alone takes tens
// of milliseconds to import) and a program that uses one provider should not pay for all of them.
// A fresh Node process records every module URL it resolves (helpers/resolved-modules.ts),
// imports the package entry, and the test reads the record.
//
// A provider loaded on its first call writes into the stream the caller already holds: the caller
// gets `start` at once, then the loaded provider's events, and every failure on the way (the module,
// the attempt, an abort while loading) as one error event in that same stream.
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { registerApiProvider, unregisterApiProviders } from "../src/api-registry.js";
import { apiProviderFromDefinition, type ProviderDefinition } from "../src/call/provider-definition.js";
import { stream } from "../src/stream.js";
import type { AssistantMessageEvent, Context } from "../src/types.js";
import { AssistantMessageEventStream } from "../src/utils/event-stream.js";
import { testModel } from "./helpers/models.js";
import { createModuleRecorder } from "./helpers/resolved-modules.js";

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), "..");
const PROVIDER_SDK = /\/node_modules\/(@anthropic-ai\/sdk|openai|@google\/genai|@aws-sdk\/|@mistralai\/)/;

const recorder = createModuleRecorder(packageRoot);
const { resolvedModules } = recorder;

afterAll(() => {
	recorder.remove();
});

// Each test spawns Node with tsx, which takes seconds on a loaded machine: hence the 60 s timeouts.
describe("lazy loading of provider SDKs", () => {
	it("importing @keel/ai loads no provider SDK", () => {
		const entry = pathToFileURL(join(packageRoot, "src/index.ts")).href;
		const modules = resolvedModules("index", `await import(${JSON.stringify(entry)});`);
		// The entry and its core modules were really loaded (so the check below is not vacuous).
		expect(modules).toContain(entry);
		expect(modules.some((url) => url.endsWith("/src/utils/validation.ts"))).toBe(true);
		expect(modules.filter((url) => PROVIDER_SDK.test(url))).toEqual([]);
	}, 60_000);

	it("the recorder does see an SDK when one is imported (control)", () => {
		const modules = resolvedModules("control", 'await import("openai"); await import("@anthropic-ai/sdk");');
		const sdks = modules.filter((url) => PROVIDER_SDK.test(url));
		expect(sdks.some((url) => url.includes("/node_modules/openai/"))).toBe(true);
		expect(sdks.some((url) => url.includes("/node_modules/@anthropic-ai/sdk/"))).toBe(true);
	}, 60_000);
});

const SOURCE = "lazy-loading-test";
const lazyModel = testModel({
	api: "lazy-api",
	id: "m",
	name: "M",
	provider: "lazy-provider",
	baseUrl: "http://127.0.0.1:1",
});
const context: Context = { messages: [{ role: "user", content: "hi", timestamp: 1 }] };

function definition(runAttempt: ProviderDefinition<"lazy-api">["runAttempt"]): ProviderDefinition<"lazy-api"> {
	return { api: "lazy-api", simpleOptions: (_model, options) => ({ ...options }), runAttempt };
}

/** A loader that resolves when `release` is called, and counts how often it was asked. */
function gatedLoader(loaded: ProviderDefinition<"lazy-api">) {
	let release: () => void = () => {};
	const gate = new Promise<void>((resolve) => {
		release = resolve;
	});
	const loader = {
		calls: 0,
		release: () => release(),
		load: async () => {
			loader.calls++;
			await gate;
			return loaded;
		},
	};
	return loader;
}

async function collect(events: AsyncIterable<AssistantMessageEvent>) {
	const list: AssistantMessageEvent[] = [];
	for await (const event of events) list.push(event);
	return list;
}

afterEach(() => unregisterApiProviders(SOURCE));

describe("a provider loaded on its first call", () => {
	it("gives the caller `start` before its module has loaded, then its events in the same stream", async () => {
		const loader = gatedLoader(
			definition(async ({ builder }) => {
				builder.appendText(builder.startText(), "hello");
				builder.finish("stop");
			}),
		);
		registerApiProvider(apiProviderFromDefinition("lazy-api", loader.load), SOURCE);
		const response = stream(lazyModel, context, { apiKey: "k" });
		const iterator = response[Symbol.asyncIterator]();
		expect((await iterator.next()).value?.type).toBe("start");
		expect(loader.calls).toBe(1);
		loader.release();
		const rest: string[] = [];
		for (let next = await iterator.next(); !next.done; next = await iterator.next()) rest.push(next.value.type);
		expect(rest).toEqual(["text_start", "text_delta", "text_end", "done"]);
		expect((await response.result()).content).toEqual([{ type: "text", text: "hello" }]);
	});

	it("pushes every event into the caller's one stream: no second stream copies them", async () => {
		const push = vi.spyOn(AssistantMessageEventStream.prototype, "push");
		try {
			registerApiProvider(
				apiProviderFromDefinition("lazy-api", async () =>
					definition(async ({ builder }) => {
						builder.appendText(builder.startText(), "hello");
						builder.finish("stop");
					}),
				),
				SOURCE,
			);
			const response = stream(lazyModel, context, { apiKey: "k" });
			await collect(response);
			expect(new Set(push.mock.contexts)).toEqual(new Set([response]));
			expect(push).toHaveBeenCalledTimes(5);
		} finally {
			push.mockRestore();
		}
	});

	it("a module that never finishes loading ends at the idle limit, even without timeoutMs", async () => {
		registerApiProvider(
			apiProviderFromDefinition("lazy-api", () => new Promise<never>(() => {})),
			SOURCE,
		);
		const response = stream(lazyModel, context, { apiKey: "k", idleTimeoutMs: 50 });
		expect((await collect(response)).map((event) => event.type)).toEqual(["start", "error"]);
		expect((await response.result()).errorMessage).toMatch(/No data received from the provider for 50 ms/);
	});

	it("a module that fails to load: `start`, then one error naming the api", async () => {
		registerApiProvider(
			apiProviderFromDefinition("lazy-api", () => Promise.reject(new Error("Cannot find module 'x'"))),
			SOURCE,
		);
		const response = stream(lazyModel, context, { apiKey: "k" });
		expect((await collect(response)).map((event) => event.type)).toEqual(["start", "error"]);
		expect((await response.result()).errorMessage).toBe(
			`Failed to load the provider for api "lazy-api": Cannot find module 'x'`,
		);
	});

	it("an attempt that throws after content: one error event keeping the content, key redacted", async () => {
		const key = "sk-lazy-secret-0123456789";
		const loaded = definition(async ({ builder }) => {
			builder.appendText(builder.startText(), "so far");
			throw new Error(`iteration broke for key ${key}`);
		});
		registerApiProvider(
			apiProviderFromDefinition("lazy-api", async () => loaded),
			SOURCE,
		);
		const response = stream(lazyModel, context, { apiKey: key });
		const events = await collect(response);
		expect(events.map((event) => event.type)).toEqual(["start", "text_start", "text_delta", "text_end", "error"]);
		const result = await response.result();
		expect(result.errorMessage).toBe("iteration broke for key [redacted]");
		expect(result.content).toEqual([{ type: "text", text: "so far" }]);
		expect(JSON.stringify(events)).not.toContain(key);
	});

	it("the caller's abort while the module loads ends the call as aborted, without an attempt", async () => {
		let attempts = 0;
		const loader = gatedLoader(
			definition(async () => {
				attempts++;
			}),
		);
		registerApiProvider(apiProviderFromDefinition("lazy-api", loader.load), SOURCE);
		const controller = new AbortController();
		const response = stream(lazyModel, context, { apiKey: "k", signal: controller.signal });
		controller.abort();
		const result = await response.result();
		loader.release();
		expect(result.stopReason).toBe("aborted");
		expect(result.errorMessage).toBe("Request was aborted");
		expect(attempts).toBe(0);
	});
});
