// A server that keeps a call open with traffic that is no progress: keep-alive comments after some
// content (as Gemini, Vertex AI and Mistral send them), or one byte at a time of a line that never
// completes. Every HTTP API ends such a call through the idle watchdog, keeping the content; the
// watchdog counts progress, and keep-alive traffic only for a bounded time after it. The exact
// bound is pinned with fake timers in call-lifetime.test.ts; these tests pin that every transport
// reports such traffic as keep-alives, not as progress (otherwise they would never end).
import { beforeAll, describe, expect, it } from "vitest";
import { useWireTestServer } from "../../helpers/wire-server.js";
import { API_CASES, TEST_KEY } from "./api-cases.js";

const wire = useWireTestServer();
// Short, yet long enough for a loaded machine to connect and answer before the first progress.
const IDLE_TIMEOUT_MS = 100;

describe.each(API_CASES)("$name, a server that only trickles", (api) => {
	// The idle limit also covers loading the provider's module, which a first call in a cold test
	// process can take longer than these tests' short limit to do: one call loads it first.
	beforeAll(async () => {
		wire.server.enqueue({ body: [api.okBody()] });
		await api.stream(wire.server.url, { apiKey: TEST_KEY }).result();
	});

	it("keep-alive comments every 20 ms after some content: ended by the idle watchdog, content kept", async () => {
		wire.server.enqueue({ body: [api.partialBody()], trickle: { piece: ": keep-alive\n\n", everyMs: 20 } });
		const result = await api.stream(wire.server.url, { apiKey: TEST_KEY, idleTimeoutMs: IDLE_TIMEOUT_MS }).result();
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toMatch(/\(idleTimeoutMs/);
		expect(result.content).toEqual([{ type: "text", text: "partial" }]);
	});

	it("keep-alive comments from the start: ended by the idle watchdog before any content", async () => {
		wire.server.enqueue({ body: [], trickle: { piece: ": keep-alive\n\n", everyMs: 20 } });
		const result = await api
			.stream(wire.server.url, { apiKey: TEST_KEY, idleTimeoutMs: IDLE_TIMEOUT_MS, maxRetries: 0 })
			.result();
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toMatch(/\(idleTimeoutMs/);
		expect(result.content).toEqual([]);
	});

	it("one byte at a time of a line that never ends: ended by the idle watchdog, content kept", async () => {
		wire.server.enqueue({ body: [`${api.partialBody()}data: {"never":"`], trickle: { piece: "x", everyMs: 20 } });
		const result = await api.stream(wire.server.url, { apiKey: TEST_KEY, idleTimeoutMs: IDLE_TIMEOUT_MS }).result();
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toMatch(/\(idleTimeoutMs/);
		expect(result.content).toEqual([{ type: "text", text: "partial" }]);
	});
});
