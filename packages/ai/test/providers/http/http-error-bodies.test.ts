// An HTTP error answer becomes one error event carrying the status and the provider's own message,
// read from each documented error body shape, and is retried only when a retry can help.
import { describe, expect, it } from "vitest";
import { classifyError } from "../../../src/call/error-classification.js";
import { classifyAnthropicError } from "../../../src/providers/anthropic/errors.js";
import type { ResponseInfo } from "../../../src/types.js";
import { describeErrorBody, ProviderHttpError } from "../../../src/wire/provider-errors.js";
import { useWireTestServer } from "../../helpers/wire-server.js";
import { API_CASES, TEST_KEY } from "./api-cases.js";

const wire = useWireTestServer();

describe("describeErrorBody reads each documented shape", () => {
	it.each([
		[
			"Anthropic",
			'{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
			{ message: "Overloaded", type: "overloaded_error" },
		],
		[
			"OpenAI (type and code)",
			'{"error":{"message":"Rate limit reached","type":"requests","param":null,"code":"rate_limit_exceeded"}}',
			{ message: "Rate limit reached", type: "requests", code: "rate_limit_exceeded" },
		],
		[
			"Azure (code only)",
			'{"error":{"code":"DeploymentNotFound","message":"The API deployment for this resource does not exist."}}',
			{ message: "The API deployment for this resource does not exist.", type: "DeploymentNotFound" },
		],
		["LM Studio (a string error)", '{"error":"Model not loaded"}', { message: "Model not loaded" }],
		[
			"vLLM (a top-level message; its type is an exception class and is left out)",
			'{"object":"error","message":"context too long","type":"BadRequestError","code":400}',
			{ message: "context too long" },
		],
		["FastAPI proxies (detail)", '{"detail":"Not authenticated"}', { message: "Not authenticated" }],
		[
			"an error object without a message",
			'{"error":{"code":500,"message":""}}',
			{ message: '{"code":500,"message":""}' },
		],
		["plain text", "  upstream connect error  ", { message: "upstream connect error" }],
		["an empty body", "", { message: "no body" }],
	])("%s", (_shape, body, expected) => {
		expect(describeErrorBody(body)).toMatchObject(expected);
	});

	it("names the status text for an empty body when there is one, and quotes at most 2000 characters", () => {
		expect(describeErrorBody("", "Bad Gateway").message).toBe("Bad Gateway");
		expect(describeErrorBody("x".repeat(5000)).message).toHaveLength(2000);
	});
});

describe("ProviderHttpError as classifyError reads it", () => {
	it("reads at most 64 KB of an error body of unknown length, and says the rest was not read", async () => {
		const piece = new TextEncoder().encode("z".repeat(32 * 1024));
		let sent = 0;
		const body = new ReadableStream<Uint8Array>({
			pull(controller) {
				sent++;
				controller.enqueue(piece);
			},
		});
		const error = await ProviderHttpError.fromResponse(new Response(body, { status: 500 }));
		expect(error.message).toMatch(/^500 z{1999}… \(error body cut at 64 KB; the rest was not read\)$/);
		// The endless body was not read on: a few pieces at most (the stream asks one ahead).
		expect(sent).toBeLessThan(5);
	});

	const response = (status: number, body: string, headers: Record<string, string> = {}) =>
		new Response(body, { status, headers: { "content-type": "application/json", ...headers } });

	it("is `<status> <message> (<type>)`, retryable for 429 with the server's delay", async () => {
		const error = await ProviderHttpError.fromResponse(
			response(429, '{"error":{"message":"Slow down","type":"rate_limit_error"}}', { "retry-after": "3" }),
		);
		expect(classifyError(error)).toEqual({
			message: "429 Slow down (rate_limit_error)",
			status: 429,
			retryable: true,
			retryAfterMs: 3000,
		});
	});

	it("drops Azure's code when it only repeats the status", async () => {
		const error = await ProviderHttpError.fromResponse(
			response(401, '{"error":{"code":"401","message":"Access denied."}}'),
		);
		expect(classifyError(error).message).toBe("401 Access denied.");
	});

	it("is not retryable for a 400, and Anthropic's x-should-retry overrides the status", async () => {
		const badRequest = await ProviderHttpError.fromResponse(
			response(400, '{"type":"error","error":{"type":"invalid_request_error","message":"bad"}}'),
		);
		expect(classifyError(badRequest).retryable).toBe(false);
		const told = await ProviderHttpError.fromResponse(
			response(400, '{"type":"error","error":{"type":"invalid_request_error","message":"bad"}}', {
				"x-should-retry": "true",
			}),
		);
		expect(classifyAnthropicError(told).retryable).toBe(true);
	});
});

describe.each(API_CASES)("$name HTTP errors over the wire", (api) => {
	it("ends a 400 with one error event: status, the provider's message, no retry, no key", async () => {
		wire.server.enqueue({
			status: 400,
			body: { error: { message: `Invalid request for key ${TEST_KEY}`, type: "invalid_request_error" } },
		});
		const statuses: ResponseInfo[] = [];
		const stream = api.stream(wire.server.url, {
			apiKey: TEST_KEY,
			maxRetries: 2,
			onResponse: (info) => {
				statuses.push(info);
			},
		});
		const errors = [];
		for await (const event of stream) if (event.type === "error") errors.push(event);
		const result = await stream.result();
		expect(errors).toHaveLength(1);
		expect(result.errorMessage).toContain("400 Invalid request for key [redacted] (invalid_request_error)");
		expect(wire.server.requests).toHaveLength(1);
		expect(statuses.map((info) => info.status)).toEqual([400]);
		expect(statuses[0].headers["content-type"]).toBe("application/json");
	});

	it("retries a 503 with a plain-text body, then streams", async () => {
		wire.server.enqueue(
			{ status: 503, headers: { "content-type": "text/plain", "retry-after-ms": "1" }, body: "upstream unavailable" },
			{ body: api.okBody() },
		);
		const result = await api.stream(wire.server.url, { apiKey: TEST_KEY, maxRetries: 1 }).result();
		expect(result.stopReason).toBe("stop");
		expect(result.diagnostics?.[0]).toMatchObject({ type: "retry", error: { message: "503 upstream unavailable" } });
	});

	it("reads at most 64 KB of a 20 MB error body, stops the download, and notes the original size", async () => {
		const megabyte = new Uint8Array(1024 * 1024).fill(0x78); // "x"
		const head = '{"error":{"type":"invalid_request_error","message":"';
		const tail = '"}}';
		const pieces = [head, ...Array.from({ length: 20 }, () => megabyte), tail];
		const totalBytes = head.length + 20 * megabyte.byteLength + tail.length;
		wire.server.enqueue({ status: 400, headers: { "content-length": String(totalBytes) }, body: pieces });
		const result = await api.stream(wire.server.url, { apiKey: TEST_KEY, maxRetries: 0 }).result();
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toMatch(/^400 /);
		expect(result.errorMessage).toContain(`(error body cut at 64 KB of ${totalBytes} bytes)`);
		expect(result.errorMessage?.length).toBeLessThan(2200);
	});

	it("reports an empty 502 body with the status text", async () => {
		wire.server.enqueue({ status: 502, headers: { "content-type": "text/html" } });
		const result = await api.stream(wire.server.url, { apiKey: TEST_KEY, maxRetries: 0 }).result();
		expect(result.errorMessage).toContain("502 Bad Gateway");
	});
});
