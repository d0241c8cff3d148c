// Content received before a failure is in the error event, whatever the load. On a starved event
// loop the idle watchdog's timer can come due in the same turn as bytes that already arrived (a
// busy machine, a process descheduled for longer than idleTimeoutMs): the timer runs first, and
// stopping right there would abort the body with "Hello " still unread. A watchdog timer that runs
// late gives the loop one more turn first. Deterministic: fake timers, a clock that jumps (the
// descheduled process), and a body whose first chunk becomes readable by a timer due at the same
// moment as the watchdog's, queued after it.
import { afterEach, describe, expect, it, vi } from "vitest";
import { API_CASES, TEST_KEY } from "./api-cases.js";

const IDLE_TIMEOUT_MS = 1_500;

afterEach(() => {
	vi.restoreAllMocks();
	vi.useRealTimers();
	vi.unstubAllGlobals();
});

/** From now on the clock reads `ms` later than the fake timers run: every timer fires that late. */
function runTimersLate(ms: number): void {
	const fakeNow = Date.now.bind(Date);
	vi.spyOn(Date, "now").mockImplementation(() => fakeNow() + ms);
}

describe.each(API_CASES)("$name on a starved event loop", (api) => {
	it("keeps content that arrived in the turn the idle deadline came due, and emits its text_delta", async () => {
		vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
		const encoder = new TextEncoder();
		let controller!: ReadableStreamDefaultController<Uint8Array>;
		const body = new ReadableStream<Uint8Array>({
			start(started) {
				controller = started;
			},
		});
		let fetched!: () => void;
		const fetchCalled = new Promise<void>((resolve) => {
			fetched = resolve;
		});
		vi.stubGlobal("fetch", async () => {
			fetched();
			return new Response(body, { status: 200, headers: { "content-type": "text/event-stream" } });
		});

		const stream = api.stream("http://127.0.0.1:9", {
			apiKey: TEST_KEY,
			idleTimeoutMs: IDLE_TIMEOUT_MS,
			maxRetries: 0,
		});
		const events: string[] = [];
		const reading = (async () => {
			for await (const event of stream) events.push(event.type);
		})();
		await fetchCalled;
		// "Hello" then the start of a line that never ends, readable in the turn the deadline comes due.
		// Before the deadline the process is descheduled: the clock moves on, the watchdog's timer runs late.
		setTimeout(() => runTimersLate(500), IDLE_TIMEOUT_MS / 2);
		setTimeout(() => controller.enqueue(encoder.encode(`${api.partialBody()}data: {"never":"`)), IDLE_TIMEOUT_MS);
		await vi.advanceTimersByTimeAsync(IDLE_TIMEOUT_MS * 10);
		await reading;
		const result = await stream.result();
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toMatch(/\(idleTimeoutMs/);
		expect(result.content).toEqual([{ type: "text", text: "partial" }]);
		expect(events).toContain("text_delta");
	});
});
