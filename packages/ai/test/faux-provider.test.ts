import { afterEach, describe, expect, expectTypeOf, it } from "vitest";
import { getApiProvider } from "../src/api-registry.js";
import { complete, stream, streamSimple } from "../src/stream.js";
import {
	type FauxProviderOptions,
	type FauxProviderRegistration,
	fauxAssistantMessage,
	fauxText,
	fauxThinking,
	fauxToolCall,
	registerFauxProvider,
} from "../src/testing/index.js";
import type { AssistantMessageEvent, Context, Model } from "../src/types.js";

const context: Context = {
	systemPrompt: "You are terse.",
	messages: [{ role: "user", content: "hello", timestamp: 1 }],
};

let registrations: FauxProviderRegistration<string>[] = [];
function register<TApi extends string = "faux">(options?: FauxProviderOptions<TApi>) {
	const registration = registerFauxProvider<TApi>(options);
	registrations.push(registration);
	return registration;
}

afterEach(() => {
	for (const registration of registrations) registration.unregister();
	registrations = [];
});

async function collect(events: AsyncIterable<AssistantMessageEvent>) {
	const list: AssistantMessageEvent[] = [];
	for await (const event of events) list.push(event);
	return list;
}

describe("registerFauxProvider", () => {
	it("registers api 'faux' with a zero-cost model and answers with the queued text", async () => {
		const faux = register();
		faux.setResponses([fauxAssistantMessage([fauxText("Hello there, friend")])]);
		const model = faux.getModel();
		expect(model).toMatchObject({ id: "faux-model", api: "faux", provider: "faux" });
		expect(model.cost).toEqual({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });
		const message = await complete(model, context);
		expect(message.stopReason).toBe("stop");
		expect(message.content).toEqual([{ type: "text", text: "Hello there, friend" }]);
		expect(message.responseId).toBe("faux_response_1");
	});

	it("streams text, thinking and tool calls as real deltas in contract order", async () => {
		const faux = register({ chunkCharacters: 3 });
		faux.setResponses([
			fauxAssistantMessage([
				fauxThinking("plan it", "sig-1"),
				fauxText("abcdefg"),
				fauxToolCall("read", { path: "/tmp/x" }, "call_1"),
			]),
		]);
		const events = await collect(stream(faux.getModel(), context));
		const types = events.map((event) => event.type);
		expect(types).toEqual([
			"start",
			"thinking_start",
			"thinking_delta",
			"thinking_delta",
			"thinking_delta",
			"thinking_end",
			"text_start",
			"text_delta",
			"text_delta",
			"text_delta",
			"text_end",
			"toolcall_start",
			...Array(6).fill("toolcall_delta"),
			"toolcall_end",
			"done",
		]);
		const textDeltas = events.flatMap((event) => (event.type === "text_delta" ? [event.delta] : []));
		expect(textDeltas).toEqual(["abc", "def", "g"]);
		const argumentDeltas = events.flatMap((event) => (event.type === "toolcall_delta" ? [event.delta] : []));
		expect(argumentDeltas.join("")).toBe('{"path":"/tmp/x"}');
		const done = events.at(-1);
		expect(done?.type === "done" && done.reason).toBe("toolUse");
		if (done?.type !== "done") throw new Error("expected done");
		expect(done.message.content).toEqual([
			{ type: "thinking", thinking: "plan it", thinkingSignature: "sig-1" },
			{ type: "text", text: "abcdefg" },
			{ type: "toolCall", id: "call_1", name: "read", arguments: { path: "/tmp/x" } },
		]);
	});

	it("shows partial tool arguments while they stream", async () => {
		const faux = register({ chunkCharacters: 8 });
		faux.setResponses([fauxAssistantMessage(fauxToolCall("write", { path: "a.txt", text: "0123456789" }))]);
		const partials: unknown[] = [];
		for await (const event of stream(faux.getModel(), context)) {
			if (event.type === "toolcall_delta") {
				const block = event.partial.content[event.contentIndex];
				if (block.type === "toolCall") partials.push(structuredClone(block.arguments));
			}
		}
		expect(partials.at(-1)).toEqual({ path: "a.txt", text: "0123456789" });
	});

	it("never splits a surrogate pair across deltas", async () => {
		const faux = register({ chunkCharacters: 1 });
		faux.setResponses(["a🙈b"]);
		const deltas: string[] = [];
		for await (const event of stream(faux.getModel(), context))
			if (event.type === "text_delta") deltas.push(event.delta);
		expect(deltas).toEqual(["a", "🙈", "b"]);
	});

	it("consumes responses in request order, counts calls and records requests", async () => {
		const faux = register();
		faux.setResponses(["first", "second"]);
		faux.appendResponses(["third"]);
		expect(faux.getPendingResponseCount()).toBe(3);
		const model = faux.getModel();
		const streams = [
			stream(model, context),
			streamSimple(model, context, { reasoning: "high" }),
			stream(model, context),
		];
		const texts = await Promise.all(streams.map(async (item) => (await item.result()).content[0]));
		expect(texts).toEqual([fauxText("first"), fauxText("second"), fauxText("third")]);
		expect(faux.state.callCount).toBe(3);
		expect(faux.getPendingResponseCount()).toBe(0);
		expect(faux.state.requests.map((request) => request.entry)).toEqual(["stream", "streamSimple", "stream"]);
		expect(faux.state.requests[1].options).toMatchObject({ reasoning: "high" });
		expect(faux.state.requests[0].context.systemPrompt).toBe("You are terse.");
	});

	it("snapshots the context, so later pushes to the caller's messages do not change the record", async () => {
		const faux = register({ responses: ["ok"] });
		const messages = [...context.messages];
		await complete(faux.getModel(), { messages });
		messages.push({ role: "user", content: "later", timestamp: 2 });
		expect(faux.state.requests[0].context.messages).toHaveLength(1);
	});

	it("ends with an error when the queue is empty", async () => {
		const faux = register();
		const message = await complete(faux.getModel(), context);
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toBe("No more faux responses queued");
		expect(faux.state.callCount).toBe(1);
	});

	it("lets a function response react to the request", async () => {
		const faux = register();
		faux.setResponses([
			(request, _options, callIndex) => {
				const last = request.messages.at(-1);
				return `call ${callIndex} saw "${last?.role === "user" ? last.content : ""}"`;
			},
		]);
		const message = await complete(faux.getModel(), context);
		expect(message.content).toEqual([fauxText('call 0 saw "hello"')]);
	});

	it("turns a throwing function response into one error event, without retrying it", async () => {
		const faux = register();
		let calls = 0;
		faux.setResponses([
			() => {
				calls++;
				throw new Error("network is down");
			},
		]);
		const events = await collect(stream(faux.getModel(), context));
		expect(events.filter((event) => event.type === "error")).toHaveLength(1);
		expect(calls).toBe(1);
		const last = events.at(-1);
		expect(last?.type === "error" && last.error.errorMessage).toBe("Faux response 1 threw: network is down");
	});

	it("streams the content of an error script, then ends with its message", async () => {
		const faux = register();
		faux.setResponses([fauxAssistantMessage("half an ans", { stopReason: "error", errorMessage: "overloaded" })]);
		const message = await complete(faux.getModel(), context);
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toBe("overloaded");
		expect(message.content).toEqual([fauxText("half an ans")]);
	});

	it("treats an empty string as no content: an error before any output", async () => {
		const faux = register();
		faux.setResponses([fauxAssistantMessage("", { stopReason: "error", errorMessage: "overloaded" })]);
		const events = await collect(stream(faux.getModel(), context));
		expect(events.map((event) => event.type)).toEqual(["start", "error"]);
		const last = events.at(-1);
		expect(last?.type === "error" && last.error.content).toEqual([]);
	});

	it("passes length stop through and upgrades stop to toolUse when there are tool calls", async () => {
		const faux = register();
		faux.setResponses([fauxAssistantMessage("cut", { stopReason: "length" }), fauxAssistantMessage(fauxToolCall("x"))]);
		expect((await complete(faux.getModel(), context)).stopReason).toBe("length");
		const second = await complete(faux.getModel(), context);
		expect(second.stopReason).toBe("toolUse");
		expect(second.content[0]).toMatchObject({ id: "faux_call_2_0", name: "x", arguments: {} });
	});

	it("aborting at a chunk ends with 'aborted' and exactly the content streamed so far", async () => {
		const faux = register({ chunkCharacters: 2 });
		faux.setResponses(["aabbccddee"]);
		const controller = new AbortController();
		const events: AssistantMessageEvent[] = [];
		const response = stream(faux.getModel(), context, { signal: controller.signal });
		for await (const event of response) {
			events.push(event);
			if (event.type === "text_delta" && event.delta === "bb") controller.abort();
		}
		const message = await response.result();
		expect(message.stopReason).toBe("aborted");
		expect(message.errorMessage).toBe("Request was aborted");
		expect(message.content).toEqual([fauxText("aabb")]);
		expect(events.filter((event) => event.type === "error")).toHaveLength(1);
	});

	it("estimates usage at about 4 characters per token", async () => {
		const faux = register({ models: [{ id: "priced", cost: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 } }] });
		faux.setResponses(["x".repeat(40)]);
		// "You are terse." (14) + "hello" (5) = 19 characters → 5 tokens.
		const message = await complete(faux.getModel("priced"), context);
		expect(message.usage).toMatchObject({ input: 5, output: 10, cacheRead: 0, cacheWrite: 0, totalTokens: 15 });
		expect(message.usage.cost.output).toBeCloseTo(20 / 1_000_000);
	});

	it("simulates prompt caching per sessionId: the shared prefix is read, the rest written", async () => {
		const faux = register({ responses: ["a", "b", "c"] });
		const model = faux.getModel();
		const first = await complete(model, context, { sessionId: "s1" });
		expect(first.usage).toMatchObject({ input: 0, cacheRead: 0, cacheWrite: 5 });
		const longer: Context = {
			...context,
			messages: [...context.messages, { role: "user", content: "x".repeat(40), timestamp: 2 }],
		};
		const second = await complete(model, longer, { sessionId: "s1" });
		expect(second.usage).toMatchObject({ input: 0, cacheRead: 5, cacheWrite: 10 });
		const noCache = await complete(model, longer, { sessionId: "s1", cacheRetention: "none" });
		expect(noCache.usage).toMatchObject({ input: 15, cacheRead: 0, cacheWrite: 0 });
	});

	it("paces delivery with timers when tokensPerSecond is set", async () => {
		const faux = register({ tokensPerSecond: 200, chunkCharacters: 4 });
		faux.setResponses(["x".repeat(40)]);
		const started = performance.now();
		await complete(faux.getModel(), context);
		// 10 chunks of one token at 200 tokens/s: at least 50 ms in total.
		expect(performance.now() - started).toBeGreaterThanOrEqual(45);
	});

	it("registers under a custom api and unregisters only itself", async () => {
		const first = register({ api: "faux-custom" });
		const second = register({ api: "faux-custom", responses: ["from second"] });
		first.unregister();
		expect(getApiProvider("faux-custom")).toBeDefined();
		expect((await complete(second.getModel(), context)).content).toEqual([fauxText("from second")]);
		second.unregister();
		expect(getApiProvider("faux-custom")).toBeUndefined();
	});

	it("rejects bad options and unknown model ids with clear errors", () => {
		expect(() => registerFauxProvider({ chunkCharacters: 0 })).toThrow(/chunkCharacters must be a positive integer/);
		expect(() => registerFauxProvider({ tokensPerSecond: -1 })).toThrow(/tokensPerSecond must be positive/);
		expect(() => registerFauxProvider({ models: [] })).toThrow(/models must not be empty/);
		const faux = register({ models: [{ id: "a" }, { id: "b" }] });
		expect(faux.getModel("b").id).toBe("b");
		expect(() => faux.getModel("c")).toThrow('Unknown faux model "c": this registration has "a", "b"');
	});

	it("types getModel by the registered api", () => {
		expectTypeOf(register().getModel()).toEqualTypeOf<Model<"faux">>();
		expectTypeOf(register({ api: "faux-typed" }).getModel()).toEqualTypeOf<Model<"faux-typed">>();
	});

	it("needs no API key", async () => {
		const faux = register({ provider: "some-provider-without-key", responses: ["ok"] });
		expect((await complete(faux.getModel(), context)).stopReason).toBe("stop");
	});
});
