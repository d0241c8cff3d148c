// A fallback chain and a structured-output call run their model calls on a signal linked to the
// caller's: the caller's abort reaches the model call, and a model call still running when the
// outer call ends early (here: its event stream broke while being read) is aborted, not left open.
import { Type } from "@sinclair/typebox";
import { afterEach, describe, expect, it } from "vitest";
import { registerApiProvider, unregisterApiProviders } from "../src/api-registry.js";
import { createProviderStream } from "../src/call/provider-stream.js";
import { createFallbackStream } from "../src/fallback/create-fallback-stream.js";
import { streamObject } from "../src/structured-output/stream-object.js";
import type { Api, AssistantMessageEvent, Context, Model, StreamOptions } from "../src/types.js";
import { type AssistantMessageEventStream, createEmptyAssistantMessage } from "../src/utils/event-stream.js";
import { userMessage } from "./helpers/messages.js";
import { testModel } from "./helpers/models.js";

const SOURCE = "inner-call-abort-test";
const context: Context = { messages: [userMessage("Hi")] };
const City = Type.Object({ city: Type.String() });

afterEach(() => unregisterApiProviders(SOURCE));

/** Registers `api`, whose calls are made by `start`; returns the signal each call received. */
function registerProvider(
	api: string,
	start: (model: Model<Api>, options: StreamOptions | undefined) => AssistantMessageEventStream,
): (AbortSignal | undefined)[] {
	const signals: (AbortSignal | undefined)[] = [];
	const call = (model: Model<Api>, _context: Context, options?: StreamOptions) => {
		signals.push(options?.signal);
		return start(model, options);
	};
	registerApiProvider({ api, stream: call, streamSimple: call }, SOURCE);
	return signals;
}

/** A call whose request stays open until its signal aborts (a stalled server). */
function stalledCall(model: Model<Api>, options: StreamOptions | undefined): AssistantMessageEventStream {
	return createProviderStream(
		model,
		{ ...options, apiKey: "unused" },
		({ signal }) =>
			new Promise<void>((_resolve, reject) => signal.addEventListener("abort", () => reject(signal.reason))),
	);
}

/** A custom provider's stream that breaks while read: `start`, then its iterator throws. Its request stays open. */
function breakingCall(model: Model<Api>): AssistantMessageEventStream {
	let read = 0;
	const start: AssistantMessageEvent = {
		type: "start",
		partial: createEmptyAssistantMessage(model.api, model.provider, model.id),
	};
	return {
		[Symbol.asyncIterator]: () => ({
			next: async () => {
				if (read++ === 0) return { value: start, done: false };
				throw new Error("the reader broke");
			},
		}),
		result: () => new Promise(() => {}),
	} as unknown as AssistantMessageEventStream;
}

describe("a fallback chain's model calls", () => {
	it("see the caller's abort while the request is stalled", async () => {
		const signals = registerProvider("stalled-chain", stalledCall);
		const model = testModel({ api: "stalled-chain", id: "m", name: "M", provider: "p", baseUrl: "http://127.0.0.1:1" });
		const controller = new AbortController();
		const events = createFallbackStream([model], { entry: "stream" })(model, context, { signal: controller.signal });
		for await (const event of events) if (event.type === "start") controller.abort();
		expect(signals[0]?.aborted).toBe(true);
		expect((await events.result()).stopReason).toBe("aborted");
	});

	it("are aborted when the chain ends early", async () => {
		const signals = registerProvider("breaking-chain", breakingCall);
		const model = testModel({
			api: "breaking-chain",
			id: "m",
			name: "M",
			provider: "p",
			baseUrl: "http://127.0.0.1:1",
		});
		const message = await createFallbackStream([model], { entry: "stream" })(model, context).result();
		expect(message.errorMessage).toContain("the reader broke");
		expect(signals[0]?.aborted).toBe(true);
	});
});

describe("a structured-output call's model calls", () => {
	it("see the caller's abort while the request is stalled", async () => {
		const signals = registerProvider("stalled-object", stalledCall);
		const model = testModel({
			api: "stalled-object",
			id: "m",
			name: "M",
			provider: "p",
			baseUrl: "http://127.0.0.1:1",
		});
		const controller = new AbortController();
		const objects = streamObject(model, context, { schema: City, signal: controller.signal });
		for await (const event of objects) if (event.type === "object_start") controller.abort();
		expect(signals[0]?.aborted).toBe(true);
		await expect(objects.result()).rejects.toMatchObject({ failure: "request_failed" });
	});

	it("are aborted when the structured call ends early", async () => {
		const signals = registerProvider("breaking-object", breakingCall);
		const model = testModel({
			api: "breaking-object",
			id: "m",
			name: "M",
			provider: "p",
			baseUrl: "http://127.0.0.1:1",
		});
		await expect(streamObject(model, context, { schema: City }).result()).rejects.toThrow("the reader broke");
		expect(signals[0]?.aborted).toBe(true);
	});
});
