// A server that keeps a call open with traffic that is no progress: keep-alive comments after some
// content (as Gemini, Vertex AI and Mistral send them), keep-alive comments from the start, or one
// byte at a time of a line that never completes. Every HTTP API ends such a call through the idle
// watchdog, keeping the content, at the latest 5 × idleTimeoutMs after its last progress (keep-alive
// traffic counts for 4 × idleTimeoutMs). Deterministic: fake timers drive the server's trickle,
// the watchdog and the clock; the body is a stream the test writes to, behind a stubbed fetch.
import { afterEach, describe, expect, it, vi } from "vitest";
import { API_CASES, type ApiCase, TEST_KEY } from "./api-cases.js";

const IDLE_TIMEOUT_MS = 1_500;
const TRICKLE_EVERY_MS = 200;
const KEEP_ALIVE_STOP =
	/^The provider sent only keep-alives or an incomplete event for \d+ ms after its last progress; the stream was stopped \(idleTimeoutMs 1500 ms\)$/;

afterEach(() => {
	vi.useRealTimers();
	vi.unstubAllGlobals();
});

/** Runs one call whose body is `first`, then `piece` every TRICKLE_EVERY_MS, forever. */
async function runTrickle(api: ApiCase, first: string, piece: string) {
	vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
	const encoder = new TextEncoder();
	let trickle: ReturnType<typeof setInterval> | undefined;
	const body = new ReadableStream<Uint8Array>({
		start(controller) {
			if (first !== "") controller.enqueue(encoder.encode(first));
			trickle = setInterval(() => controller.enqueue(encoder.encode(piece)), TRICKLE_EVERY_MS);
		},
		cancel() {
			clearInterval(trickle);
		},
	});
	vi.stubGlobal("fetch", async () => new Response(body, { headers: { "content-type": "text/event-stream" } }));
	const stream = api.stream("http://127.0.0.1:9", { apiKey: TEST_KEY, idleTimeoutMs: IDLE_TIMEOUT_MS, maxRetries: 0 });
	// Far beyond the bound: a call that counted keep-alives as progress would still be open.
	await vi.advanceTimersByTimeAsync(IDLE_TIMEOUT_MS * 20);
	clearInterval(trickle);
	return stream.result();
}

describe.each(API_CASES)("$name, a server that only trickles", (api) => {
	it("keep-alive comments after some content: ended by the idle watchdog within 5 idle periods, content kept", async () => {
		const result = await runTrickle(api, api.partialBody(), ": keep-alive\n\n");
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toMatch(KEEP_ALIVE_STOP);
		expect(Number(/for (\d+) ms/.exec(result.errorMessage ?? "")?.[1])).toBeLessThanOrEqual(5 * IDLE_TIMEOUT_MS);
		expect(result.content).toEqual([{ type: "text", text: "partial" }]);
	});

	it("keep-alive comments from the start: ended by the idle watchdog before any content", async () => {
		const result = await runTrickle(api, "", ": keep-alive\n\n");
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toMatch(KEEP_ALIVE_STOP);
		expect(result.content).toEqual([]);
	});

	it("one byte at a time of a line that never ends: ended by the idle watchdog, content kept", async () => {
		const result = await runTrickle(api, `${api.partialBody()}data: {"never":"`, "x");
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toMatch(KEEP_ALIVE_STOP);
		expect(result.content).toEqual([{ type: "text", text: "partial" }]);
	});
});
