import { describe, expect, it } from "vitest";
import { streamAnthropic } from "../../../src/providers/anthropic/index.js";
import type { Context } from "../../../src/types.js";
import { useWireTestServer } from "../../helpers/wire-server.js";
import {
	anthropicSse,
	blockStop,
	claudeModel,
	errorBody,
	messageStart,
	sseResponse,
	TEST_KEY,
	textDelta,
	textResponseEvents,
	textStart,
} from "./fixtures.js";

const wire = useWireTestServer();

const context: Context = { messages: [{ role: "user", content: "Hello", timestamp: 1 }] };
const model = () => claudeModel({ baseUrl: wire.server.url });

describe("anthropic HTTP errors", () => {
	it.each([
		[400, "invalid_request_error", "prompt is too long: 210000 tokens > 200000 maximum"],
		[401, "authentication_error", `invalid x-api-key ${TEST_KEY}`],
		[404, "not_found_error", "model: claude-nope"],
		[413, "request_too_large", "Request exceeds the maximum allowed number of bytes."],
	])("ends %i with one error event carrying status and message, without retrying", async (status, type, text) => {
		wire.server.enqueue({ status, body: errorBody(type, text) });
		const stream = streamAnthropic(model(), context, { apiKey: TEST_KEY, maxRetries: 2 });
		const events = [];
		for await (const event of stream) events.push(event);
		const result = await stream.result();
		expect(events.filter((event) => event.type === "error")).toHaveLength(1);
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toContain(`${status} ${text.replace(TEST_KEY, "[redacted]")} (${type})`);
		expect(result.errorMessage).not.toContain(TEST_KEY);
		expect(wire.server.requests).toHaveLength(1);
	});

	it.each([
		[429, "rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit"],
		[500, "api_error", "Internal server error"],
		[503, "api_error", "Service unavailable"],
		[529, "overloaded_error", "Overloaded"],
	])("retries %i (honouring retry-after-ms) and reports it when retries run out", async (status, type, text) => {
		const failure = { status, headers: { "retry-after-ms": "1" }, body: errorBody(type, text) };
		wire.server.enqueue(failure, failure);
		const result = await streamAnthropic(model(), context, { apiKey: TEST_KEY, maxRetries: 1 }).result();
		expect(wire.server.requests).toHaveLength(2);
		expect(result.errorMessage).toContain(`${status} ${text} (${type})`);
		expect(result.diagnostics?.filter((diagnostic) => diagnostic.type === "retry")).toHaveLength(1);
	});

	it("succeeds after a 529 overloaded response", async () => {
		wire.server.enqueue(
			{ status: 529, headers: { "retry-after-ms": "1" }, body: errorBody("overloaded_error", "Overloaded") },
			sseResponse(textResponseEvents(["fine"])),
		);
		const result = await streamAnthropic(model(), context, { apiKey: TEST_KEY }).result();
		expect(result.stopReason).toBe("stop");
		expect(result.content).toEqual([{ type: "text", text: "fine" }]);
	});

	it("fails at once when the server asks to wait longer than maxRetryDelayMs", async () => {
		wire.server.enqueue({
			status: 429,
			headers: { "retry-after": "120" },
			body: errorBody("rate_limit_error", "slow down"),
		});
		const result = await streamAnthropic(model(), context, { apiKey: TEST_KEY, maxRetryDelayMs: 1000 }).result();
		expect(wire.server.requests).toHaveLength(1);
		expect(result.errorMessage).toMatch(/^429 slow down \(rate_limit_error\) \(the provider asked to retry in 120 s/);
	});

	it("honours x-should-retry: false on a retryable status", async () => {
		wire.server.enqueue({ status: 500, headers: { "x-should-retry": "false" }, body: errorBody("api_error", "no") });
		const result = await streamAnthropic(model(), context, { apiKey: TEST_KEY, maxRetries: 2 }).result();
		expect(wire.server.requests).toHaveLength(1);
		expect(result.errorMessage).toContain("500 no (api_error)");
	});

	it("ends with a clear error when no key is configured, before any request", async () => {
		const saved = { oauth: process.env.ANTHROPIC_OAUTH_TOKEN, key: process.env.ANTHROPIC_API_KEY };
		delete process.env.ANTHROPIC_OAUTH_TOKEN;
		delete process.env.ANTHROPIC_API_KEY;
		try {
			const result = await streamAnthropic(model(), context).result();
			expect(result.errorMessage).toMatch(/No API key for provider "anthropic"/);
			expect(wire.server.requests).toHaveLength(0);
		} finally {
			if (saved.oauth !== undefined) process.env.ANTHROPIC_OAUTH_TOKEN = saved.oauth;
			if (saved.key !== undefined) process.env.ANTHROPIC_API_KEY = saved.key;
		}
	});

	it("fails at once, without retrying, for a tool schema the API cannot take", async () => {
		const result = await streamAnthropic(
			model(),
			{ ...context, tools: [{ name: "bad", description: "", parameters: { type: "string" } as never }] },
			{ apiKey: TEST_KEY, maxRetries: 3 },
		).result();
		expect(result.errorMessage).toMatch(/^Tool "bad": Anthropic needs an object schema/);
		expect(result.diagnostics).toBeUndefined();
		expect(wire.server.requests).toHaveLength(0);
	});

	it("turns bad input into an error event without sending anything", async () => {
		const result = await streamAnthropic(model(), context, {
			apiKey: TEST_KEY,
			thinkingEnabled: true,
			thinkingBudgetTokens: 10,
		}).result();
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toMatch(/thinkingBudgetTokens must be an integer of at least 1024/);
		expect(wire.server.requests).toHaveLength(0);
	});
});

describe("anthropic stream failures", () => {
	it("retries an in-stream overloaded error event that arrives before any content", async () => {
		wire.server.enqueue(
			{
				body: [
					anthropicSse([messageStart()]),
					`event: error\ndata: ${JSON.stringify(errorBody("overloaded_error", "Overloaded"))}\n\n`,
				],
			},
			sseResponse(textResponseEvents(["recovered"])),
		);
		const result = await streamAnthropic(model(), context, { apiKey: TEST_KEY, maxRetries: 1 }).result();
		expect(wire.server.requests).toHaveLength(2);
		expect(result.content).toEqual([{ type: "text", text: "recovered" }]);
		expect(result.diagnostics?.[0]?.error?.message).toBe("Overloaded (overloaded_error)");
	});

	it("does not retry an in-stream error after content, and keeps the partial text and usage", async () => {
		wire.server.enqueue({
			body: [
				anthropicSse([messageStart({ input_tokens: 42 }), textStart(0), textDelta(0, "half an ans")]),
				`event: error\ndata: ${JSON.stringify(errorBody("overloaded_error", "Overloaded"))}\n\n`,
			],
		});
		const result = await streamAnthropic(model(), context, { apiKey: TEST_KEY, maxRetries: 2 }).result();
		expect(wire.server.requests).toHaveLength(1);
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toBe("Overloaded (overloaded_error)");
		expect(result.content).toEqual([{ type: "text", text: "half an ans" }]);
		expect(result.usage.input).toBe(42);
		expect(result.usage.cost.input).toBeGreaterThan(0);
	});

	it("reports malformed SSE data as an error event", async () => {
		wire.server.enqueue({
			body: [anthropicSse([messageStart(), textStart(0)]), "event: content_block_delta\ndata: {not json\n\n"],
		});
		const result = await streamAnthropic(model(), context, { apiKey: TEST_KEY, maxRetries: 2 }).result();
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toMatch(
			/^Anthropic sent a stream event that is not JSON \(event "content_block_delta"\): .* \(data: \{not json\)$/,
		);
		// The same request would get the same stream: no retry.
		expect(wire.server.requests).toHaveLength(1);
	});

	it("reports a well-formed but invalid event as a malformed-stream error", async () => {
		wire.server.enqueue({
			body: [
				anthropicSse([messageStart(), textStart(0)]),
				'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{"}}\n\n',
			],
		});
		const result = await streamAnthropic(model(), context, { apiKey: TEST_KEY }).result();
		expect(result.errorMessage).toMatch(/^Malformed Anthropic stream event \(a toolCall delta on a text block\)/);
	});

	it("ends a stream cut mid-response with an error that keeps the partial content", async () => {
		wire.server.enqueue({
			body: [anthropicSse([messageStart(), textStart(0), textDelta(0, "so far")])],
			cut: true,
		});
		const result = await streamAnthropic(model(), context, { apiKey: TEST_KEY, maxRetries: 2 }).result();
		expect(result.stopReason).toBe("error");
		expect(result.content).toEqual([{ type: "text", text: "so far" }]);
		expect(wire.server.requests).toHaveLength(1);
	});

	it("ends a stream that ends without message_stop with an error", async () => {
		wire.server.enqueue({ body: [anthropicSse([messageStart(), textStart(0), textDelta(0, "x"), blockStop(0)])] });
		const result = await streamAnthropic(model(), context, { apiKey: TEST_KEY }).result();
		expect(result.errorMessage).toMatch(/ended before the response was finished/);
	});

	it("stops a stalled stream with the idle watchdog and keeps the partial content", async () => {
		wire.server.enqueue({ body: [anthropicSse([messageStart(), textStart(0), textDelta(0, "before")])], stall: true });
		// Generous: the first bytes must arrive before the limit, also on a busy machine; the stall after them is what ends the call.
		const result = await streamAnthropic(model(), context, { apiKey: TEST_KEY, idleTimeoutMs: 2000 }).result();
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toMatch(/No data received from the provider for 2000 ms/);
		expect(result.content).toEqual([{ type: "text", text: "before" }]);
	});

	it("stops a request whose headers never come with timeoutMs", async () => {
		wire.server.enqueue({ stallBeforeHeaders: true });
		const result = await streamAnthropic(model(), context, { apiKey: TEST_KEY, timeoutMs: 100 }).result();
		expect(result.errorMessage).toBe("Request timed out after 100 ms (timeoutMs)");
	});

	it("retries a connection that closes before the response", async () => {
		wire.server.enqueue({ body: [], cut: true, status: 200 }, sseResponse(textResponseEvents(["second try"])));
		const result = await streamAnthropic(model(), context, { apiKey: TEST_KEY, maxRetries: 1 }).result();
		expect(result.content).toEqual([{ type: "text", text: "second try" }]);
	});
});
