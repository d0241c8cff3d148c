// A provider for an API Keel does not ship, Ollama's native /api/chat (newline-delimited JSON),
// written the way a third party would: it imports only @keel/ai and @keel/ai/provider-kit
// (ollama-chat/), is registered lazily, and runs against a local server. It passes the fault
// tests the built-in providers pass (test/providers/http): retries, HTTP errors, a cut, an abort,
// a malformed line, a missing terminal line, idle and trickling servers, key redaction.
import { stream, unregisterApiProviders } from "@keel/ai";
import { WireTestServer } from "@keel/ai/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { moduleRequests, ollamaModel, registerOllamaChat } from "./ollama-chat/register.js";

const KEY = "sk-ollama-proxy-secret-0123456789";
const NDJSON = { "content-type": "application/x-ndjson" };
const context = { systemPrompt: "Be brief.", messages: [{ role: "user" as const, content: "Hi", timestamp: 1 }] };

let server: WireTestServer;
beforeAll(async () => {
	server = await WireTestServer.start();
	registerOllamaChat();
});
afterAll(async () => {
	unregisterApiProviders("ollama-chat");
	await server.close();
});
beforeEach(() => server.reset());

const line = (value: Record<string, unknown>) => `${JSON.stringify(value)}\n`;
const piece = (content: string) => line({ model: "llama3.2", message: { role: "assistant", content }, done: false });
const done = (reason = "stop") =>
	line({
		model: "llama3.2",
		message: { role: "assistant", content: "" },
		done: true,
		done_reason: reason,
		prompt_eval_count: 26,
		eval_count: 3,
	});

function call(options: Parameters<typeof stream>[2] = {}) {
	return stream(ollamaModel("llama3.2", server.url), context, { maxRetryDelayMs: 1, ...options });
}

describe("a provider written with @keel/ai/provider-kit (Ollama /api/chat)", () => {
	// The first test of the file: nothing has called the provider yet.
	it("is registered lazily: its module is first asked for by the first call", async () => {
		expect(moduleRequests.count).toBe(0);
		server.enqueue({ headers: NDJSON, body: [piece("Hello"), piece(" there"), done()] });
		const result = await call().result();
		expect(moduleRequests.count).toBe(1);
		expect(result.stopReason).toBe("stop");
		expect(result.content).toEqual([{ type: "text", text: "Hello there" }]);
		expect(result.usage).toMatchObject({ input: 26, output: 3 });
		expect(server.lastRequest?.url).toBe("/api/chat");
		expect(server.lastRequest?.json).toEqual({
			model: "llama3.2",
			messages: [
				{ role: "system", content: "Be brief." },
				{ role: "user", content: "Hi" },
			],
			stream: true,
		});
	});

	it("reads lines split across network chunks, inside a line and inside a multi-byte character", async () => {
		const body = Buffer.from(piece("Grüße ✓") + done());
		const pieces = Array.from({ length: Math.ceil(body.length / 7) }, (_, index) =>
			body.subarray(index * 7, index * 7 + 7),
		);
		server.enqueue({ headers: NDJSON, body: pieces });
		const result = await call().result();
		expect(result.content).toEqual([{ type: "text", text: "Grüße ✓" }]);
	});

	it("streams a tool call and ends with toolUse", async () => {
		server.enqueue({
			headers: NDJSON,
			body: [
				line({
					message: {
						role: "assistant",
						content: "",
						tool_calls: [{ function: { name: "lookup", arguments: { q: "x" } } }],
					},
					done: false,
				}),
				done("stop"),
			],
		});
		const result = await call().result();
		expect(result.stopReason).toBe("toolUse");
		expect(result.content).toMatchObject([{ type: "toolCall", name: "lookup", arguments: { q: "x" } }]);
	});

	it("retries a 5xx before any content and streams the next attempt", async () => {
		server.enqueue(
			{ status: 503, body: { error: "server busy" } },
			{ headers: NDJSON, body: [piece("after"), done()] },
		);
		const result = await call({ maxRetries: 1 }).result();
		expect(result.content).toEqual([{ type: "text", text: "after" }]);
		expect(server.requests).toHaveLength(2);
	});

	it("does not retry a 404 and keeps Ollama's own message", async () => {
		server.enqueue({ status: 404, body: { error: 'model "llama9" not found, try pulling it first' } });
		const result = await call({ maxRetries: 2 }).result();
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toContain('model "llama9" not found, try pulling it first');
		expect(server.requests).toHaveLength(1);
	});

	it("cut mid-body: one error naming the provider and the cut, partial text kept, no retry", async () => {
		server.enqueue({ headers: NDJSON, body: [piece("partial")], cut: true });
		const result = await call({ maxRetries: 2 }).result();
		expect(result.errorMessage).toMatch(
			/^The connection to Ollama closed before the response was finished: terminated/,
		);
		expect(result.content).toEqual([{ type: "text", text: "partial" }]);
		expect(server.requests).toHaveLength(1);
	});

	it("aborted mid-body: ends as aborted with the partial text", async () => {
		server.enqueue({ headers: NDJSON, body: [piece("partial")], stall: true });
		const controller = new AbortController();
		const running = call({ signal: controller.signal });
		for await (const event of running) if (event.type === "text_delta") controller.abort();
		const result = await running.result();
		expect(result.stopReason).toBe("aborted");
		expect(result.content).toEqual([{ type: "text", text: "partial" }]);
	});

	it("a line that is not JSON keeps every line before it, from the same network chunk", async () => {
		server.enqueue({ headers: NDJSON, body: [`${piece("partial")}{not json\n`] });
		const events: string[] = [];
		const running = call({ maxRetries: 0 });
		for await (const event of running) events.push(event.type);
		const result = await running.result();
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toMatch(/JSON/);
		expect(result.content).toEqual([{ type: "text", text: "partial" }]);
		expect(events).toContain("text_delta");
	});

	it("an error line mid-stream: one error with Ollama's message, partial text kept", async () => {
		server.enqueue({ headers: NDJSON, body: [piece("partial"), line({ error: "out of memory" })] });
		const result = await call({ maxRetries: 0 }).result();
		expect(result.errorMessage).toBe("Ollama error: out of memory");
		expect(result.content).toEqual([{ type: "text", text: "partial" }]);
	});

	it("ended without the done line: an error that names it", async () => {
		server.enqueue({ headers: NDJSON, body: [piece("partial")] });
		const result = await call().result();
		expect(result.errorMessage).toBe('The Ollama stream ended before the response was finished (no "done": true line)');
		expect(result.content).toEqual([{ type: "text", text: "partial" }]);
	});

	it("left open after the done line: finishes without waiting for the connection to close", async () => {
		server.enqueue({ headers: NDJSON, body: [piece("ok"), done()], stall: true });
		const result = await call({ idleTimeoutMs: 60_000 }).result();
		expect(result.stopReason).toBe("stop");
	});

	it("a stalled stream ends through the idle watchdog, content kept", async () => {
		server.enqueue({ headers: NDJSON, body: [piece("partial")], stall: true });
		const result = await call({ idleTimeoutMs: 100 }).result();
		expect(result.errorMessage).toMatch(/\(idleTimeoutMs/);
		expect(result.content).toEqual([{ type: "text", text: "partial" }]);
	});

	it("one byte at a time of a line that never ends: ended by the idle watchdog, content kept", async () => {
		server.enqueue({
			headers: NDJSON,
			body: [`${piece("partial")}{"message":"`],
			trickle: { piece: "x", everyMs: 20 },
		});
		const result = await call({ idleTimeoutMs: 100 }).result();
		expect(result.errorMessage).toMatch(/\(idleTimeoutMs/);
		expect(result.content).toEqual([{ type: "text", text: "partial" }]);
	});

	it("never lets the key appear in the message, even when the server echoes it", async () => {
		server.enqueue({ status: 401, body: { error: `invalid token ${KEY}` } });
		const result = await call({ apiKey: KEY, maxRetries: 0 }).result();
		expect(server.lastRequest?.headers.authorization).toBe(`Bearer ${KEY}`);
		expect(result.stopReason).toBe("error");
		expect(JSON.stringify(result)).not.toContain(KEY);
		expect(JSON.stringify(result)).not.toContain(KEY.slice(4, 20));
	});
});
