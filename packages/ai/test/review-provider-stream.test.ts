// Contract cases of createProviderStream found in review: a caller's abort ends the call even while
// `onResponse` hangs on an error response, an unusable option ends the call with an error event
// (not an unhandled rejection and a "stop" result), and a key the provider echoes in an in-stream
// error is redacted like one in a thrown error.
import { describe, expect, it } from "vitest";
import { createProviderStream } from "../src/providers/shared/provider-stream.js";
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

function throwHookError(): never {
	throw new Error("network hook failed");
}

async function collect(stream: AsyncIterable<AssistantMessageEvent>) {
	const events: AssistantMessageEvent[] = [];
	for await (const event of stream) events.push(event);
	return events;
}

describe("createProviderStream contract (review)", () => {
	it("ends with aborted when the caller aborts while onResponse hangs on an HTTP error", async () => {
		const controller = new AbortController();
		let onResponseCalled: () => void = () => {};
		const called = new Promise<void>((resolve) => {
			onResponseCalled = resolve;
		});
		const stream = createProviderStream(
			model,
			{
				apiKey: "k-secret",
				maxRetries: 0,
				signal: controller.signal,
				onResponse: () => {
					onResponseCalled();
					return new Promise<void>(() => {});
				},
			},
			async () => {
				throw Object.assign(new Error("500 down"), { status: 500 });
			},
		);
		await called;
		controller.abort();
		const events = await collect(stream);
		expect(events.map((event) => event.type)).toEqual(["start", "error"]);
		const result = await stream.result();
		expect(result.stopReason).toBe("aborted");
		expect(result.errorMessage).toBe("Request was aborted");
	});

	it("ends with one error event when options.signal is not an AbortSignal", async () => {
		let calls = 0;
		const stream = createProviderStream(
			model,
			{ apiKey: "k-secret", signal: {} as AbortSignal },
			async ({ builder }) => {
				calls++;
				builder.finish("stop");
			},
		);
		const events = await collect(stream);
		expect(events.map((event) => event.type)).toEqual(["start", "error"]);
		const result = await stream.result();
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toMatch(/signal/);
		expect(calls).toBe(0);
	});

	// Node fires a timer longer than 2^31-1 ms after 1 ms (TimeoutOverflowWarning), so an "endless"
	// limit must mean no timer rather than an immediate timeout.
	for (const [name, limit] of [
		["timeoutMs", { timeoutMs: Number.POSITIVE_INFINITY }],
		["idleTimeoutMs", { idleTimeoutMs: Number.POSITIVE_INFINITY }],
		["timeoutMs beyond the timer range", { timeoutMs: 2 ** 31 }],
	] as const) {
		it(`treats ${name} = ${Object.values(limit)[0]} as no limit`, async () => {
			const stream = createProviderStream(model, { apiKey: "k-secret", ...limit }, async ({ builder }) => {
				// A provider that takes a moment to answer (longer than the 1 ms an overflowed timer waits).
				await new Promise((resolve) => setTimeout(resolve, 25));
				const index = builder.startText();
				builder.appendText(index, "ok");
				builder.finish("stop");
			});
			const result = await stream.result();
			expect(result.errorMessage).toBeUndefined();
			expect(result.stopReason).toBe("stop");
		});
	}

	// A callback's exception is the caller's bug, not a transient failure: it ends the call at once,
	// even when its text looks like a connection error, and the callback is not run again.
	for (const [name, hook] of [
		["onPayload throws", { onPayload: () => throwHookError() }],
		["onPayload rejects", { onPayload: async () => throwHookError() }],
		["onResponse throws", { onResponse: () => throwHookError() }],
	] as const) {
		it(`${name}: one error event with the callback's message, no retry`, async () => {
			let attempts = 0;
			const stream = createProviderStream(model, { apiKey: "k-secret", ...hook }, async (attempt) => {
				attempts++;
				await attempt.preparePayload({ body: true });
				await attempt.reportResponse({ status: 200, headers: {} });
				attempt.builder.finish("stop");
			});
			const events = await collect(stream);
			expect(events.map((event) => event.type)).toEqual(["start", "error"]);
			const result = await stream.result();
			expect(result.errorMessage).toBe("network hook failed");
			expect(attempts).toBe(1);
			expect(result.diagnostics).toBeUndefined();
		});
	}

	it("waits out a retry-after beyond setTimeout's range (maxRetryDelayMs 0) instead of retrying after 1 ms", async () => {
		let attempts = 0;
		// timeoutMs is the clock: the call ends at 50 ms, long after an overflowed timer would have fired.
		const stream = createProviderStream(
			model,
			{ apiKey: "k-secret", maxRetries: 1, maxRetryDelayMs: 0, timeoutMs: 50 },
			async () => {
				attempts++;
				if (attempts === 1) {
					throw Object.assign(new Error("429 slow down"), { status: 429, headers: { "retry-after-ms": "3000000000" } });
				}
				await new Promise<never>(() => {});
			},
		);
		const result = await stream.result();
		expect(result.errorMessage).toBe("Request timed out after 50 ms (timeoutMs)");
		expect(attempts).toBe(1);
	});

	it("redacts the key from an error the decoder reports from the stream itself", async () => {
		const key = "sk-live-1234567890";
		const stream = createProviderStream(model, { apiKey: key }, async ({ builder }) => {
			const index = builder.startText();
			builder.appendText(index, "partial");
			builder.fail("error", `Incorrect API key provided: ${key}`);
		});
		const events = await collect(stream);
		const terminal = events.at(-1);
		expect(terminal?.type).toBe("error");
		const result = await stream.result();
		expect(result.errorMessage).toBe("Incorrect API key provided: [redacted]");
		expect(JSON.stringify(events.at(-1))).not.toContain(key);
		expect(result.content).toEqual([{ type: "text", text: "partial" }]);
	});
});
