// A call lives until the caller aborts, `timeoutMs` passes or the stream goes quiet for
// `idleTimeoutMs`; each ends the call with one error event that keeps the content, even when the
// transport ignores the signal. The unit (CallLifetime) first, then the same guarantees end to end.
import { afterEach, describe, expect, it, vi } from "vitest";
import {
	CallLifetime,
	CallStoppedError,
	DEFAULT_TIMEOUT_MS,
	KEEP_ALIVE_ALLOWANCE,
	type StopCause,
	stopMessage,
} from "../src/call/call-lifetime.js";
import { createProviderStream } from "../src/call/provider-stream.js";
import type { AssistantMessageEvent } from "../src/types.js";
import { testModel } from "./helpers/models.js";

const model = testModel({
	api: "test-api",
	id: "test-model",
	name: "Test",
	provider: "test-provider",
	baseUrl: "http://127.0.0.1:1",
});

/** From now on the clock reads `ms` later than the fake timers run: every timer fires that late. */
function runTimersLate(ms: number): void {
	const fakeNow = Date.now.bind(Date);
	vi.spyOn(Date, "now").mockImplementation(() => fakeNow() + ms);
}

async function collect(stream: AsyncIterable<AssistantMessageEvent>) {
	const events: AssistantMessageEvent[] = [];
	for await (const event of stream) events.push(event);
	return events;
}

afterEach(() => {
	vi.restoreAllMocks();
	vi.useRealTimers();
});

describe("CallLifetime", () => {
	it("aborts its signal when the caller aborts, with stop cause 'aborted'", () => {
		const caller = new AbortController();
		const lifetime = new CallLifetime({ signal: caller.signal });
		expect(lifetime.signal.aborted).toBe(false);
		caller.abort();
		expect(lifetime.signal.aborted).toBe(true);
		expect(lifetime.stopCause).toEqual({ kind: "aborted" });
	});

	it("starts stopped when the caller's signal is already aborted", () => {
		const lifetime = new CallLifetime({ signal: AbortSignal.abort() });
		expect(lifetime.stopCause).toEqual({ kind: "aborted" });
	});

	it("stops after timeoutMs", () => {
		vi.useFakeTimers();
		const lifetime = new CallLifetime({ timeoutMs: 100 });
		vi.advanceTimersByTime(99);
		expect(lifetime.stopCause).toBeUndefined();
		vi.advanceTimersByTime(1);
		expect(lifetime.stopCause).toEqual({ kind: "timeout", ms: 100 });
		expect(stopMessage({ kind: "timeout", ms: 100 })).toBe("Request timed out after 100 ms (timeoutMs)");
	});

	it("idle watchdog: stops after idleTimeoutMs of silence, counted from the last touch", () => {
		vi.useFakeTimers();
		const lifetime = new CallLifetime({ idleTimeoutMs: 100 });
		lifetime.touch();
		vi.advanceTimersByTime(60);
		lifetime.touch();
		vi.advanceTimersByTime(60);
		expect(lifetime.stopCause).toBeUndefined();
		vi.advanceTimersByTime(40);
		expect(lifetime.stopCause).toEqual({ kind: "idle", ms: 100 });
	});

	it("idle watchdog: a late timer (a starved loop) lets activity delivered in the next turn keep the call alive", () => {
		vi.useFakeTimers();
		const lifetime = new CallLifetime({ idleTimeoutMs: 100 });
		lifetime.touch();
		// Bytes that arrived while the loop was starved are read in the turn after the deadline's timer.
		setTimeout(() => lifetime.touch(), 100);
		// The process was descheduled for 50 ms: the clock moves on, the timers run late.
		runTimersLate(50);
		vi.advanceTimersByTime(100);
		expect(lifetime.stopCause).toBeUndefined();
		vi.advanceTimersByTime(101);
		expect(lifetime.stopCause).toEqual({ kind: "idle", ms: 100 });
	});

	it("idle watchdog: a late timer with nothing delivered in the next turn stops the call", () => {
		vi.useFakeTimers();
		const lifetime = new CallLifetime({ idleTimeoutMs: 100 });
		lifetime.touch();
		runTimersLate(50);
		vi.advanceTimersByTime(100);
		expect(lifetime.stopCause).toBeUndefined();
		vi.advanceTimersByTime(1);
		expect(lifetime.stopCause).toEqual({ kind: "idle", ms: 100 });
	});

	it("keep-alives: keep the call alive only for KEEP_ALIVE_ALLOWANCE idle periods after the last progress", () => {
		vi.useFakeTimers();
		const lifetime = new CallLifetime({ idleTimeoutMs: 100 });
		lifetime.touch();
		const keepAlives = setInterval(() => lifetime.keepAlive(), 20);
		vi.advanceTimersByTime(100 * KEEP_ALIVE_ALLOWANCE);
		expect(lifetime.stopCause).toBeUndefined();
		vi.advanceTimersByTime(101);
		clearInterval(keepAlives);
		expect(lifetime.stopCause).toMatchObject({ kind: "idle", ms: 100 });
		expect(stopMessage(lifetime.stopCause as StopCause)).toMatch(
			/^The provider sent only keep-alives or an incomplete event for \d+ ms after its last progress; the stream was stopped \(idleTimeoutMs 100 ms\)$/,
		);
	});

	it("keep-alives: progress restores the allowance", () => {
		vi.useFakeTimers();
		const lifetime = new CallLifetime({ idleTimeoutMs: 100 });
		lifetime.touch();
		const keepAlives = setInterval(() => lifetime.keepAlive(), 20);
		const progress = setInterval(() => lifetime.touch(), 300);
		vi.advanceTimersByTime(100 * KEEP_ALIVE_ALLOWANCE * 5);
		clearInterval(keepAlives);
		clearInterval(progress);
		expect(lifetime.stopCause).toBeUndefined();
		lifetime.dispose();
	});

	it("timeoutMs: a call that sets none ends at the finite default ceiling, keeping its content", async () => {
		vi.useFakeTimers();
		// A transport that keeps reporting progress forever: only the ceiling can end it.
		const stream = createProviderStream(model, { apiKey: "k" }, ({ builder, touch }) => {
			builder.appendText(builder.startText(), "endless");
			setInterval(touch, 1_000);
			return new Promise(() => {});
		});
		await vi.advanceTimersByTimeAsync(DEFAULT_TIMEOUT_MS);
		const result = await stream.result();
		vi.clearAllTimers();
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toBe(`Request timed out after ${DEFAULT_TIMEOUT_MS} ms (timeoutMs)`);
		expect(result.content).toEqual([{ type: "text", text: "endless" }]);
	});

	it("idle watchdog: runs one timer however many chunks arrive (no re-arming per touch)", () => {
		vi.useFakeTimers();
		const lifetime = new CallLifetime({ idleTimeoutMs: 100 });
		for (let chunk = 0; chunk < 1000; chunk++) lifetime.touch();
		expect(vi.getTimerCount()).toBe(1);
	});

	it("idle watchdog: is not running before the first touch, nor while paused", () => {
		vi.useFakeTimers();
		const lifetime = new CallLifetime({ idleTimeoutMs: 100 });
		vi.advanceTimersByTime(500);
		lifetime.touch();
		lifetime.pauseIdle();
		vi.advanceTimersByTime(500);
		expect(lifetime.stopCause).toBeUndefined();
	});

	for (const [name, limits] of [
		["Infinity", { timeoutMs: Number.POSITIVE_INFINITY, idleTimeoutMs: Number.POSITIVE_INFINITY }],
		["beyond setTimeout's range", { timeoutMs: 2 ** 31, idleTimeoutMs: 2 ** 31 }],
		["0", { timeoutMs: 0, idleTimeoutMs: 0 }],
	] as const) {
		it(`limits of ${name} mean no limit: no timer at all`, () => {
			vi.useFakeTimers();
			const lifetime = new CallLifetime(limits);
			lifetime.touch();
			expect(vi.getTimerCount()).toBe(0);
			vi.advanceTimersByTime(2 ** 31);
			expect(lifetime.stopCause).toBeUndefined();
		});
	}

	it("race: rejects with the stop cause as soon as the call stops, even if the promise never settles", async () => {
		const caller = new AbortController();
		const lifetime = new CallLifetime({ signal: caller.signal });
		const raced = lifetime.race(new Promise(() => {}));
		caller.abort();
		await expect(raced).rejects.toBeInstanceOf(CallStoppedError);
		await expect(lifetime.race(Promise.resolve(1))).rejects.toMatchObject({ stopCause: { kind: "aborted" } });
	});

	it("sleep: resolves true after the delay, false as soon as the call stops", async () => {
		vi.useFakeTimers();
		const caller = new AbortController();
		const lifetime = new CallLifetime({ signal: caller.signal });
		const slept = lifetime.sleep(50);
		vi.advanceTimersByTime(50);
		expect(await slept).toBe(true);
		const interrupted = lifetime.sleep(10_000);
		caller.abort();
		expect(await interrupted).toBe(false);
	});

	it("beginAttempt: the attempt's signal aborts when the attempt ends and when the call stops", () => {
		const caller = new AbortController();
		const lifetime = new CallLifetime({ signal: caller.signal });
		const first = lifetime.beginAttempt();
		first.end();
		expect(first.signal.aborted).toBe(true);
		expect(lifetime.signal.aborted).toBe(false);
		const second = lifetime.beginAttempt();
		caller.abort();
		expect(second.signal.aborted).toBe(true);
	});

	it("dispose: clears its timers and stops listening to the caller's signal", () => {
		vi.useFakeTimers();
		const caller = new AbortController();
		const lifetime = new CallLifetime({ signal: caller.signal, timeoutMs: 100, idleTimeoutMs: 100 });
		lifetime.touch();
		lifetime.dispose();
		expect(vi.getTimerCount()).toBe(0);
		caller.abort();
		expect(lifetime.stopCause).toBeUndefined();
	});
});

describe("a provider call's lifetime, end to end", () => {
	it("the idle watchdog ends a stalled stream even when the transport ignores the signal, keeping the content", async () => {
		const result = await createProviderStream(model, { apiKey: "k", idleTimeoutMs: 30 }, ({ builder }) => {
			builder.appendText(builder.startText(), "before stall");
			return new Promise(() => {});
		}).result();
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toBe(
			"No data received from the provider for 30 ms; the stream was stopped (idleTimeoutMs)",
		);
		expect(result.content).toEqual([{ type: "text", text: "before stall" }]);
	});

	it("an abort before the request ends as aborted without calling the transport", async () => {
		let called = false;
		const result = await createProviderStream(model, { apiKey: "k", signal: AbortSignal.abort() }, async () => {
			called = true;
		}).result();
		expect(called).toBe(false);
		expect(result.stopReason).toBe("aborted");
		expect(result.errorMessage).toBe("Request was aborted");
	});

	it("the caller's abort ends the call while onResponse hangs on an HTTP error", async () => {
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

	// Node fires a timer longer than 2^31-1 ms after 1 ms (TimeoutOverflowWarning), so an "endless"
	// limit must mean no timer rather than an immediate timeout.
	for (const [name, limit] of [
		["timeoutMs", { timeoutMs: Number.POSITIVE_INFINITY }],
		["idleTimeoutMs", { idleTimeoutMs: Number.POSITIVE_INFINITY }],
		["timeoutMs beyond the timer range", { timeoutMs: 2 ** 31 }],
	] as const) {
		it(`${name} = ${Object.values(limit)[0]} lets a slow provider finish`, async () => {
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

	it("timeoutMs covers the wait before a retry: a retry-after beyond setTimeout's range (maxRetryDelayMs 0) is waited out, not retried after 1 ms", async () => {
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
});
