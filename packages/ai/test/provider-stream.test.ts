import { describe, expect, it } from "vitest";
import { createProviderStream, startProviderCall } from "../src/call/provider-stream.js";
import type { AssistantMessageEvent, Model } from "../src/types.js";

const model: Model<"test-api"> = {
	id: "test-model",
	name: "Test",
	api: "test-api",
	provider: "test-provider",
	baseUrl: "http://127.0.0.1:1",
	reasoning: false,
	input: ["text"],
	cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
	contextWindow: 1000,
	maxTokens: 100,
};

async function collect(stream: AsyncIterable<AssistantMessageEvent>) {
	const events: AssistantMessageEvent[] = [];
	for await (const event of stream) events.push(event);
	return events;
}

describe("createProviderStream: checks before the first attempt, and how a call ends", () => {
	it("ends with a clear error when no key is found", async () => {
		const result = await createProviderStream(model, {}, async () => {}).result();
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toBe('No API key for provider "test-provider": pass options.apiKey');
	});

	it("ends with one error event when options.signal is not an AbortSignal, without calling the transport", async () => {
		let calls = 0;
		const response = createProviderStream(model, { apiKey: "k", signal: {} as AbortSignal }, async ({ builder }) => {
			calls++;
			builder.finish("stop");
		});
		const events = await collect(response);
		expect(events.map((event) => event.type)).toEqual(["start", "error"]);
		const result = await response.result();
		expect(result.errorMessage).toBe(
			"options.signal must be an AbortSignal (for example new AbortController().signal), got a plain object",
		);
		expect(calls).toBe(0);
	});

	it("ends with a clear error for a maxTokens that is not a non-negative integer", async () => {
		const result = await createProviderStream(model, { apiKey: "k", maxTokens: 1.5 }, async () => {}).result();
		expect(result.errorMessage).toBe("maxTokens must be a non-negative integer, got 1.5");
	});

	it("turns an exception outside any attempt (a bug in a provider's preparation) into one error event", async () => {
		const response = startProviderCall(model, { apiKey: "k" }, () => {
			throw new Error("prepare broke");
		});
		const events = await collect(response);
		expect(events.map((event) => event.type)).toEqual(["start", "error"]);
		expect((await response.result()).errorMessage).toBe("prepare broke");
	});

	it("fails when the transport returns without a stop event", async () => {
		const result = await createProviderStream(model, { apiKey: "k" }, async ({ builder }) => {
			builder.appendText(builder.startText(), "cut");
		}).result();
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toMatch(/ended before the response was finished/);
		expect(result.content[0]).toEqual({ type: "text", text: "cut" });
	});
});
