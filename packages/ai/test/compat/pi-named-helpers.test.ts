// contentText, uuidv7, isRecoverableLength, isRetryableAssistantError and retryAssistantCall.
import { afterEach, describe, expect, it, vi } from "vitest";
import {
	contentText,
	isRecoverableLength,
	isRetryableAssistantError,
	retryAssistantCall,
	retryDelayMs,
	uuidv7,
} from "../../src/index.js";
import type { AssistantMessage } from "../../src/types.js";
import { createEmptyAssistantMessage } from "../../src/utils/event-stream.js";

function reply(stopReason: AssistantMessage["stopReason"], errorMessage?: string, output = 0): AssistantMessage {
	const message = createEmptyAssistantMessage("faux", "faux", "m");
	return { ...message, stopReason, errorMessage, usage: { ...message.usage, output } };
}

afterEach(() => vi.useRealTimers());

describe("contentText", () => {
	it("joins only text blocks, with a newline unless told otherwise; a string passes through", () => {
		const content = [
			{ type: "text" as const, text: "a" },
			{ type: "thinking" as const, thinking: "hidden" },
			{ type: "text" as const, text: "b" },
		];
		expect(contentText(content)).toBe("a\nb");
		expect(contentText(content, "")).toBe("ab");
		expect(contentText("plain")).toBe("plain");
	});
});

describe("uuidv7", () => {
	it("has version 7, the RFC variant, and the timestamp in its first 48 bits", () => {
		const id = uuidv7(0x0123456789ab);
		expect(id).toMatch(/^01234567-89ab-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
	});

	it("sorts by creation time and refuses a timestamp outside 48 bits", () => {
		expect(uuidv7(1000) < uuidv7(2000)).toBe(true);
		const [first, second] = [uuidv7(5), uuidv7(5)];
		expect(first).not.toBe(second);
		expect(() => uuidv7(-1)).toThrow(RangeError);
		expect(() => uuidv7(2 ** 48)).toThrow(RangeError);
	});
});

describe("isRecoverableLength", () => {
	it("is true only for a length stop below the requested output", () => {
		expect(isRecoverableLength(reply("length", undefined, 100), 4000)).toBe(true);
		expect(isRecoverableLength(reply("length", undefined, 4000), 4000)).toBe(false);
		expect(isRecoverableLength(reply("stop", undefined, 100), 4000)).toBe(false);
		expect(isRecoverableLength(reply("length", undefined, 100), 0)).toBe(false);
	});
});

describe("isRetryableAssistantError", () => {
	it.each([
		"429 Too Many Requests",
		"Overloaded",
		"503 Service Unavailable",
		"fetch failed",
		"socket hang up",
		"Request timed out",
	])("retries %s", (text) => {
		expect(isRetryableAssistantError(reply("error", text))).toBe(true);
	});

	it.each(["insufficient_quota: You exceeded your current quota", "Invalid API key", "request id 5029 not found"])(
		"does not retry %s",
		(text) => {
			expect(isRetryableAssistantError(reply("error", text))).toBe(false);
		},
	);

	it("never retries a message that is not an error", () => {
		expect(isRetryableAssistantError(reply("stop", "429"))).toBe(false);
	});
});

describe("retryAssistantCall", () => {
	const policy = { enabled: true, maxRetries: 2, baseDelayMs: 1000 };

	it("doubles the delay from the base, within the cap", () => {
		expect([1, 2, 3].map((attempt) => retryDelayMs(policy, attempt))).toEqual([1000, 2000, 4000]);
		expect(retryDelayMs({ baseDelayMs: 1000, maxAgentDelayMs: 1500 }, 3)).toBe(1500);
	});

	it("retries transient errors with backoff and reports the outcome once", async () => {
		vi.useFakeTimers();
		const answers = [reply("error", "503 overloaded"), reply("error", "503 overloaded"), reply("stop")];
		const scheduled: number[] = [];
		const finished: unknown[] = [];
		const result = retryAssistantCall(async () => answers.shift() as AssistantMessage, policy, undefined, {
			onRetryScheduled: (_attempt, _max, delayMs) => void scheduled.push(delayMs),
			onRetryFinished: (...args) => void finished.push(args),
		});
		await vi.runAllTimersAsync();
		expect((await result).stopReason).toBe("stop");
		expect(scheduled).toEqual([1000, 2000]);
		expect(finished).toEqual([[true, 2, undefined]]);
	});

	it("returns a permanent error at once and gives up after maxRetries", async () => {
		vi.useFakeTimers();
		let calls = 0;
		const permanent = await retryAssistantCall(
			async () => {
				calls++;
				return reply("error", "Invalid API key");
			},
			policy,
			undefined,
		);
		expect(permanent.errorMessage).toBe("Invalid API key");
		expect(calls).toBe(1);
		calls = 0;
		const exhausted = retryAssistantCall(
			async () => {
				calls++;
				return reply("error", "429");
			},
			policy,
			undefined,
		);
		await vi.runAllTimersAsync();
		expect((await exhausted).stopReason).toBe("error");
		expect(calls).toBe(3);
	});

	it("an abort during the delay returns the message as aborted without its error text", async () => {
		const controller = new AbortController();
		const result = retryAssistantCall(async () => reply("error", "429"), policy, controller.signal, {
			onRetryScheduled: () => controller.abort(),
		});
		const settled = await result;
		expect(settled.stopReason).toBe("aborted");
		expect(settled.errorMessage).toBeUndefined();
	});

	it("without a policy calls once", async () => {
		let calls = 0;
		await retryAssistantCall(
			async () => {
				calls++;
				return reply("error", "429");
			},
			undefined,
			undefined,
		);
		expect(calls).toBe(1);
	});
});
