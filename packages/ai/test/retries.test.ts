// Which failures are retried and how: only transient ones, only before the caller saw content,
// within maxRetries, after retry-after or capped backoff, never a caller's callback that threw.
import { describe, expect, it } from "vitest";
import type { ErrorClassification } from "../src/call/error-classification.js";
import { NonRetryableError } from "../src/call/provider-attempt.js";
import { createProviderStream } from "../src/call/provider-stream.js";
import { backoffDelay, decideRetry, type FailedAttempt, retrySettings } from "../src/call/retry-policy.js";
import type { AssistantMessageEvent } from "../src/types.js";
import { testModel } from "./helpers/models.js";

const model = testModel({
	api: "test-api",
	id: "test-model",
	name: "Test",
	provider: "test-provider",
	baseUrl: "http://127.0.0.1:1",
});

const transient: ErrorClassification = { message: "503 busy", status: 503, retryable: true };
const settings = { maxRetries: 2, maxRetryDelayMs: 60_000 };

function failure(overrides: Partial<FailedAttempt> = {}): FailedAttempt {
	return { error: new Error("503 busy"), classification: transient, attempt: 0, hasContent: false, ...overrides };
}

async function collect(stream: AsyncIterable<AssistantMessageEvent>) {
	const events: AssistantMessageEvent[] = [];
	for await (const event of stream) events.push(event);
	return events;
}

describe("decideRetry", () => {
	it("retries a transient failure before content, within maxRetries", () => {
		expect(decideRetry(failure(), settings, () => 0)).toEqual({ retry: true, delayMs: 500 });
		expect(decideRetry(failure({ attempt: 1 }), settings, () => 1)).toEqual({ retry: true, delayMs: 2000 });
	});

	it("does not retry once maxRetries retries were made", () => {
		expect(decideRetry(failure({ attempt: 2 }), settings)).toEqual({ retry: false });
		expect(decideRetry(failure(), { ...settings, maxRetries: 0 })).toEqual({ retry: false });
	});

	it("does not retry once content reached the caller", () => {
		expect(decideRetry(failure({ hasContent: true }), settings)).toEqual({ retry: false });
	});

	it("does not retry a failure classified as permanent, nor a NonRetryableError", () => {
		const permanent = { ...transient, status: 400, retryable: false };
		expect(decideRetry(failure({ classification: permanent }), settings)).toEqual({ retry: false });
		expect(decideRetry(failure({ error: new NonRetryableError("bad input") }), settings)).toEqual({ retry: false });
	});

	it("waits what the server asked for (retry-after)", () => {
		const asked = { ...transient, retryAfterMs: 1234 };
		expect(decideRetry(failure({ classification: asked }), settings)).toEqual({ retry: true, delayMs: 1234 });
	});

	it("refuses a retry-after longer than maxRetryDelayMs, saying so", () => {
		const asked = { ...transient, retryAfterMs: 120_000 };
		expect(decideRetry(failure({ classification: asked }), settings)).toEqual({
			retry: false,
			note: "the provider asked to retry in 120 s, more than maxRetryDelayMs 60000 ms",
		});
	});

	it("shortens its own backoff to maxRetryDelayMs instead of giving up", () => {
		expect(decideRetry(failure({ attempt: 1 }), { ...settings, maxRetryDelayMs: 20 }, () => 1)).toEqual({
			retry: true,
			delayMs: 20,
		});
	});

	it("maxRetryDelayMs 0 means no cap", () => {
		const asked = { ...transient, retryAfterMs: 3_000_000_000 };
		expect(decideRetry(failure({ classification: asked }), { ...settings, maxRetryDelayMs: 0 })).toEqual({
			retry: true,
			delayMs: 3_000_000_000,
		});
	});

	it("reads maxRetries and maxRetryDelayMs with their defaults (2 and 60 s); a negative count means none", () => {
		expect(retrySettings({})).toEqual({ maxRetries: 2, maxRetryDelayMs: 60_000 });
		expect(retrySettings({ maxRetries: -1 }).maxRetries).toBe(0);
	});
});

describe("backoffDelay", () => {
	it("doubles per attempt with jitter in the upper half, capped at 30 s", () => {
		expect([0, 1, 2].map((attempt) => backoffDelay(attempt, () => 0))).toEqual([500, 1000, 2000]);
		expect([0, 1, 2].map((attempt) => backoffDelay(attempt, () => 1))).toEqual([1000, 2000, 4000]);
		expect(backoffDelay(20, () => 1)).toBe(30_000);
	});
});

describe("retries through the harness", () => {
	it("retries a 429 before content, then succeeds: one start, the retry in diagnostics, usage of the last attempt", async () => {
		let calls = 0;
		const stream = createProviderStream(model, { apiKey: "k-secret", maxRetries: 2 }, async ({ builder }) => {
			calls++;
			if (calls === 1) {
				builder.updateUsage({ input: 50 });
				throw Object.assign(new Error("429 slow down"), { status: 429, headers: { "retry-after-ms": "5" } });
			}
			const index = builder.startText();
			builder.appendText(index, "hi");
			builder.updateUsage({ input: 1_000_000, output: 0 });
			builder.finish("stop");
		});
		const events = await collect(stream);
		expect(calls).toBe(2);
		expect(events.filter((event) => event.type === "start")).toHaveLength(1);
		const result = await stream.result();
		expect(result.stopReason).toBe("stop");
		expect(result.usage.input).toBe(1_000_000);
		expect(result.usage.cost.input).toBe(2);
		expect(result.diagnostics?.[0]).toMatchObject({
			type: "retry",
			error: { message: "429 slow down" },
			details: { attempt: 1, delayMs: 5, status: 429 },
		});
	});

	it("never retries once content was emitted, and keeps the partial content", async () => {
		let calls = 0;
		const result = await createProviderStream(model, { apiKey: "k" }, async ({ builder }) => {
			calls++;
			const index = builder.startText();
			builder.appendText(index, "partial");
			throw Object.assign(new Error("boom"), { status: 500 });
		}).result();
		expect(calls).toBe(1);
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toContain("500 boom");
		expect(result.content).toEqual([{ type: "text", text: "partial" }]);
	});

	it("ends with the provider's retry-after in the message when it exceeds maxRetryDelayMs", async () => {
		let calls = 0;
		const result = await createProviderStream(model, { apiKey: "k", maxRetryDelayMs: 1000 }, async () => {
			calls++;
			throw Object.assign(new Error("429 slow down"), { status: 429, headers: { "retry-after": "120" } });
		}).result();
		expect(calls).toBe(1);
		expect(result.errorMessage).toContain(
			"429 slow down (the provider asked to retry in 120 s, more than maxRetryDelayMs 1000 ms)",
		);
	});

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

	it("reports an HTTP error's status to onResponse once per attempt, also when the transport did not", async () => {
		const statuses: number[] = [];
		const result = await createProviderStream(
			model,
			{ apiKey: "k", maxRetries: 1, onResponse: (response) => void statuses.push(response.status) },
			async () => {
				throw Object.assign(new Error("503 busy"), { status: 503, headers: { "retry-after-ms": "1" } });
			},
		).result();
		// The provider's text, then who answered, where, and after how many attempts over how long.
		expect(result.errorMessage).toMatch(/^503 busy \(test-provider at 127\.0\.0\.1:\d+, 2 attempts over \d+\.\d s\)$/);
		expect(statuses).toEqual([503, 503]);
	});
});

function throwHookError(): never {
	throw new Error("network hook failed");
}
