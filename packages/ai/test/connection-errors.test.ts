// A connection that could not be made ends with a message naming the provider, the address and the
// system error, and saying how many attempts were made. Errors are shaped like Node's fetch (undici)
// reports them; one case uses a real closed port on 127.0.0.1. No host name is ever resolved.
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { describeAttemptFailure } from "../src/call/call-failure.js";
import { findNetworkCause } from "../src/call/connection-error.js";
import { classifyError } from "../src/call/error-classification.js";
import { createProviderStream } from "../src/call/provider-stream.js";
import { stream } from "../src/index.js";
import type { Context } from "../src/types.js";
import { testModel } from "./helpers/models.js";

const context: Context = { messages: [{ role: "user", content: "hi", timestamp: 1 }] };

function systemError(message: string, fields: Record<string, unknown>): Error {
	return Object.assign(new Error(message), fields);
}

/** What Node's fetch throws: `TypeError: fetch failed` with the system error as its cause. */
function fetchFailed(cause: unknown): TypeError {
	return new TypeError("fetch failed", { cause });
}

const refused = systemError("connect ECONNREFUSED 127.0.0.1:11434", {
	code: "ECONNREFUSED",
	errno: -111,
	syscall: "connect",
	address: "127.0.0.1",
	port: 11434,
});
const notFound = systemError("getaddrinfo ENOTFOUND api.example.com", {
	code: "ENOTFOUND",
	errno: -3008,
	syscall: "getaddrinfo",
	hostname: "api.example.com",
});

async function closedPort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const address = server.address();
	if (!address || typeof address === "string") throw new Error("no port");
	await new Promise<void>((resolve) => server.close(() => resolve()));
	return address.port;
}

describe("findNetworkCause", () => {
	it("finds the system error behind fetch's TypeError, and behind an SDK's wrapper of it", () => {
		const expected = {
			code: "ECONNREFUSED",
			message: "connect ECONNREFUSED 127.0.0.1:11434",
			target: "127.0.0.1:11434",
			beforeConnecting: true,
			retryable: true,
		};
		expect(findNetworkCause(fetchFailed(refused))).toEqual(expected);
		const sdkWrapped = Object.assign(new Error("Connection error."), { cause: fetchFailed(refused) });
		expect(findNetworkCause(sdkWrapped)).toEqual(expected);
	});

	it("names the host of a name that does not resolve, and does not retry it", () => {
		expect(findNetworkCause(fetchFailed(notFound))).toMatchObject({
			code: "ENOTFOUND",
			target: "api.example.com",
			retryable: false,
		});
	});

	it("lists every address tried when connecting failed on all of them (AggregateError)", () => {
		const ipv6 = systemError("connect ECONNREFUSED ::1:11434", { code: "ECONNREFUSED", address: "::1", port: 11434 });
		const aggregate = Object.assign(new AggregateError([ipv6, refused], ""), { code: "ECONNREFUSED" });
		expect(findNetworkCause(fetchFailed(aggregate))).toMatchObject({
			message: "connect ECONNREFUSED ::1:11434; connect ECONNREFUSED 127.0.0.1:11434",
			target: "127.0.0.1:11434",
		});
	});

	it("marks a connection reset as happening after connecting", () => {
		const reset = systemError("read ECONNRESET", { code: "ECONNRESET", syscall: "read" });
		expect(findNetworkCause(fetchFailed(reset))).toMatchObject({ beforeConnecting: false, retryable: true });
	});

	it("finds nothing in an HTTP error, a Node ERR_* code, or a browser's bare TypeError", () => {
		expect(findNetworkCause(Object.assign(new Error("429"), { status: 429 }))).toBeUndefined();
		expect(findNetworkCause(systemError("Invalid URL", { code: "ERR_INVALID_URL" }))).toBeUndefined();
		expect(findNetworkCause(new TypeError("Failed to fetch"))).toBeUndefined();
	});
});

describe("classifyError for network failures", () => {
	it("names the system error and retries a refused connection", () => {
		expect(classifyError(fetchFailed(refused))).toEqual({
			message: "fetch failed (connect ECONNREFUSED 127.0.0.1:11434)",
			retryable: true,
		});
	});

	it("does not retry a host name that does not resolve", () => {
		expect(classifyError(fetchFailed(notFound)).retryable).toBe(false);
	});
});

describe("describeAttemptFailure", () => {
	const provider = "ollama";

	it("says where it could not connect, why, and how many attempts it made over how long", () => {
		const error = fetchFailed(refused);
		const text = describeAttemptFailure(
			provider,
			error,
			classifyError(error),
			{ attempts: 3, startedAt: 1000 },
			{ now: 3600 },
		);
		expect(text).toBe(
			"Could not connect to ollama at 127.0.0.1:11434: connect ECONNREFUSED 127.0.0.1:11434 (3 attempts over 2.6 s)",
		);
	});

	it("leaves out the attempt count after a single attempt", () => {
		const error = fetchFailed(notFound);
		const text = describeAttemptFailure(
			provider,
			error,
			classifyError(error),
			{ attempts: 1, startedAt: 0 },
			{ now: 5 },
		);
		expect(text).toBe("Could not connect to ollama at api.example.com: getaddrinfo ENOTFOUND api.example.com");
	});

	it("names the provider, the host and the attempts after an HTTP error status that was retried", () => {
		const error = Object.assign(new Error("500 Internal server error"), { status: 500 });
		const text = describeAttemptFailure(
			"anthropic",
			error,
			classifyError(error),
			{ attempts: 3, startedAt: 1000 },
			{
				baseUrl: "https://api.anthropic.com/v1",
				now: 4100,
			},
		);
		expect(text).toBe("500 Internal server error (anthropic at api.anthropic.com, 3 attempts over 3.1 s)");
	});

	it("names the provider and the host after an HTTP error status answered at once (401)", () => {
		const error = Object.assign(new Error("401 invalid x-api-key"), { status: 401 });
		const text = describeAttemptFailure(
			"anthropic",
			error,
			classifyError(error),
			{ attempts: 1, startedAt: 0 },
			{
				baseUrl: "http://127.0.0.1:8080",
			},
		);
		expect(text).toBe("401 invalid x-api-key (anthropic at 127.0.0.1:8080)");
	});

	it("names the provider alone when the model has no base URL", () => {
		const error = Object.assign(new Error("503 busy"), { status: 503 });
		expect(describeAttemptFailure(provider, error, classifyError(error), { attempts: 1, startedAt: 0 })).toBe(
			"503 busy (ollama)",
		);
	});

	it("keeps the classification's message for a failure that is neither an HTTP status nor a refused connection", () => {
		const error = new Error("socket hang up");
		expect(describeAttemptFailure(provider, error, classifyError(error), { attempts: 3, startedAt: 0 })).toBe(
			"socket hang up",
		);
	});
});

describe("connection failures end to end", () => {
	it("stream() to a closed port on 127.0.0.1: retried, then one error naming the address and the attempts", async () => {
		const port = await closedPort();
		const model = testModel({
			api: "openai-completions",
			id: "llama",
			name: "Local",
			provider: "ollama",
			baseUrl: `http://127.0.0.1:${port}/v1`,
		});
		const response = stream(model, context, { maxRetries: 2, maxRetryDelayMs: 5 });
		const result = await response.result();
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toMatch(
			new RegExp(
				`^Could not connect to ollama at 127\\.0\\.0\\.1:${port}: connect ECONNREFUSED 127\\.0\\.0\\.1:${port} \\(3 attempts over \\d+\\.\\d s\\)$`,
			),
		);
		expect(result.diagnostics?.filter((diagnostic) => diagnostic.type === "retry")).toHaveLength(2);
	});

	it("a host name that does not resolve ends after one attempt", async () => {
		let attempts = 0;
		const model = testModel({
			api: "test-api",
			id: "m",
			name: "M",
			provider: "example",
			baseUrl: "https://api.example.com",
		});
		const result = await createProviderStream(model, { apiKey: "k" }, async () => {
			attempts++;
			throw fetchFailed(notFound);
		}).result();
		expect(attempts).toBe(1);
		expect(result.errorMessage).toBe(
			"Could not connect to example at api.example.com: getaddrinfo ENOTFOUND api.example.com",
		);
	});
});
