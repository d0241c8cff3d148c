import { afterEach, describe, expect, it, vi } from "vitest";
import {
	clearApiProviders,
	getApiProvider,
	getApiProviders,
	registerApiProvider,
	unregisterApiProviders,
} from "../src/api-registry.js";
import { failedStream } from "../src/call/failed-stream.js";
import { registerBuiltInApiProviders, resetApiProviders } from "../src/providers/register-builtins.js";
import { complete, completeSimple, stream, streamSimple } from "../src/stream.js";
import { fauxText, registerFauxProvider } from "../src/testing/faux-provider.js";
import type { Api, AssistantMessageEvent, Context, Model } from "../src/types.js";

// The Anthropic module fails to load in this file, to pin what a broken provider module does
// (vitest wraps the factory's error in its own message, so tests match only our prefix).
vi.mock("../src/providers/anthropic/index.js", () => {
	throw new Error("simulated load failure");
});

const context: Context = { messages: [{ role: "user", content: "hi", timestamp: 1 }] };

function modelFor(api: Api, id = "m"): Model<Api> {
	return {
		id,
		name: id,
		api,
		provider: "p",
		baseUrl: "http://127.0.0.1:1",
		reasoning: false,
		input: ["text"],
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
		contextWindow: 1000,
		maxTokens: 100,
	};
}

/** A provider whose every call ends with one error carrying `text`, so tests can tell registrations apart. */
function fixedProvider(api: string, text: string) {
	const answer = (model: Model<Api>) => failedStream(model, text);
	return { api, stream: answer, streamSimple: answer };
}

afterEach(() => {
	resetApiProviders();
});

async function collect(events: AsyncIterable<AssistantMessageEvent>) {
	const list: AssistantMessageEvent[] = [];
	for await (const event of events) list.push(event);
	return list;
}

describe("api registry", () => {
	it("registers the built-in wire APIs, and the catalogue's not-yet-implemented ones", () => {
		resetApiProviders();
		expect(getApiProviders().map((provider) => provider.api)).toEqual([
			"anthropic-messages",
			"openai-completions",
			"openai-responses",
			"azure-openai-responses",
			"mistral-conversations",
			"google-generative-ai",
			"google-vertex",
			"bedrock-converse-stream",
			"openai-codex-responses",
			"google-gemini-cli",
		]);
	});

	it("replaces an api registered twice (last one wins)", async () => {
		registerApiProvider(fixedProvider("custom", "first"));
		registerApiProvider(fixedProvider("custom", "second"));
		expect((await complete(modelFor("custom"), context)).errorMessage).toBe("second");
		expect(getApiProviders().filter((provider) => provider.api === "custom")).toHaveLength(1);
	});

	it("unregisters only the providers registered with that sourceId", () => {
		registerApiProvider(fixedProvider("a", "a"), "plugin-1");
		registerApiProvider(fixedProvider("b", "b"), "plugin-1");
		registerApiProvider(fixedProvider("c", "c"), "plugin-2");
		unregisterApiProviders("plugin-1");
		expect(getApiProvider("a")).toBeUndefined();
		expect(getApiProvider("b")).toBeUndefined();
		expect(getApiProvider("c")).toBeDefined();
		expect(getApiProvider("openai-responses")).toBeDefined();
	});

	it("a replacement under another sourceId survives unregistering the first source", () => {
		registerApiProvider(fixedProvider("shared", "old"), "old-source");
		registerApiProvider(fixedProvider("shared", "new"), "new-source");
		unregisterApiProviders("old-source");
		expect(getApiProvider("shared")).toBeDefined();
	});

	it("clear removes everything; reset brings back only the built-ins", () => {
		registerApiProvider(fixedProvider("custom", "x"));
		clearApiProviders();
		expect(getApiProviders()).toEqual([]);
		resetApiProviders();
		expect(getApiProvider("custom")).toBeUndefined();
		expect(getApiProvider("anthropic-messages")).toBeDefined();
	});

	it("registering the built-ins twice keeps one entry per api", () => {
		registerBuiltInApiProviders();
		registerBuiltInApiProviders();
		expect(getApiProviders()).toHaveLength(10);
	});

	it("throws synchronously when a provider gets a model of another api", () => {
		const faux = registerFauxProvider();
		const provider = getApiProvider("faux");
		expect(() => provider?.stream(modelFor("openai-responses"), context)).toThrow(
			"Mismatched api: openai-responses expected faux",
		);
		expect(() => provider?.streamSimple(modelFor("other"), context)).toThrow("Mismatched api: other expected faux");
		faux.unregister();
	});
});

describe("stream and streamSimple", () => {
	it("throw synchronously for an api with no provider", () => {
		expect(() => stream(modelFor("nowhere"), context)).toThrow("No API provider registered for api: nowhere");
		expect(() => streamSimple(modelFor("nowhere"), context)).toThrow("No API provider registered for api: nowhere");
		expect(() => complete(modelFor("nowhere"), context)).toThrow("No API provider registered for api: nowhere");
	});

	it("route to the registered provider and resolve complete / completeSimple with its message", async () => {
		const faux = registerFauxProvider({ responses: ["one", "two"] });
		const model = faux.getModel();
		expect((await complete(model, context)).content).toEqual([fauxText("one")]);
		expect((await completeSimple(model, context, { reasoning: "low" })).content).toEqual([fauxText("two")]);
		expect(faux.state.requests.map((request) => request.entry)).toEqual(["stream", "streamSimple"]);
		faux.unregister();
	});

	it("turn a provider that throws synchronously into `start` and one error event", async () => {
		const throwing = () => {
			throw new Error("provider exploded");
		};
		registerApiProvider({ api: "throwing", stream: throwing, streamSimple: throwing });
		for (const call of [stream, streamSimple]) {
			const events = await collect(call(modelFor("throwing"), context));
			expect(events.map((event) => event.type)).toEqual(["start", "error"]);
			const event = events[1];
			if (event.type !== "error") return;
			expect(event.error).toMatchObject({ stopReason: "error", errorMessage: "provider exploded", api: "throwing" });
		}
	});

	for (const [name, call] of [
		["stream", stream],
		["streamSimple", streamSimple],
		["complete", complete],
		["completeSimple", completeSimple],
	] as const) {
		it(`${name}: a model that is undefined (an id getModel did not find) ends with one error saying so`, async () => {
			const missing = undefined as unknown as Model<Api>;
			const result = await Promise.resolve(call(missing, context)).then((value) =>
				"result" in value ? value.result() : value,
			);
			expect(result.stopReason).toBe("error");
			const entryPoint = name.startsWith("complete") ? name.replace("complete", "stream") : name;
			expect(result.errorMessage).toMatch(
				new RegExp(
					`^${entryPoint}\\(\\) was called without a model \\(got undefined\\): getModel\\(\\) returns undefined`,
				),
			);
			expect(result.errorMessage).toContain("getModelOrThrow()");
		});
	}

	it("a null model gets the same clear error event, not a TypeError", async () => {
		const events = await collect(stream(null as unknown as Model<Api>, context));
		expect(events.map((event) => event.type)).toEqual(["start", "error"]);
		expect((events[1] as { error: { errorMessage: string } }).error.errorMessage).toMatch(
			/^stream\(\) was called without a model \(got null\)/,
		);
	});

	it("turn a built-in provider module that fails to load into `start` and one error event", async () => {
		const model = modelFor("anthropic-messages", "claude-test");
		const response = stream(model, context, { apiKey: "k" });
		const events = await collect(response);
		expect(events.map((event) => event.type)).toEqual(["start", "error"]);
		const message = await response.result();
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toMatch(/^Failed to load the provider for api "anthropic-messages": /);
		const simple = await completeSimple(model, context);
		expect(simple.errorMessage).toMatch(/Failed to load the provider/);
	});
});
