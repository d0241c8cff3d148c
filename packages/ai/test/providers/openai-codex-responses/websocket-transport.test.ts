// The Codex provider over a WebSocket, against a local `ws` server: the events, failures, abort,
// one socket per session reused for sequential calls, and the fall-back to SSE with "auto".
import { createServer, type Server } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { completeSimple } from "../../../src/index.js";
import {
	closeOpenAICodexWebSockets,
	forgetOpenAICodexSseFallbacks,
	keptOpenAICodexWebSocketCount,
	type OpenAICodexResponsesOptions,
	type OpenAICodexResponsesSimpleOptions,
	streamOpenAICodexResponses,
} from "../../../src/providers/openai-codex-responses/index.js";
import { keptSocketRecords } from "../../../src/providers/openai-codex-responses/websocket-pool.js";
import type { AssistantMessageEvent, Context } from "../../../src/types.js";
import { useWireTestServer } from "../../helpers/wire-server.js";
import {
	completed,
	created,
	functionCallEvents,
	messageEvents,
	reasoningEvents,
	responseObject,
	responsesSse,
} from "../openai-responses/fixtures.js";
import { ACCOUNT_ID, codexModel, TOKEN } from "./fixtures.js";
import { WebSocketTestServer } from "./websocket-test-server.js";

let sockets: WebSocketTestServer;
const wire = useWireTestServer();
const context: Context = { systemPrompt: "Be brief.", messages: [{ role: "user", content: "Hi", timestamp: 1 }] };

beforeAll(async () => {
	sockets = await WebSocketTestServer.start();
});
afterAll(async () => {
	closeOpenAICodexWebSockets();
	await sockets.close();
});
beforeEach(() => {
	sockets.reset();
	forgetOpenAICodexSseFallbacks();
});
afterEach(() => {
	closeOpenAICodexWebSockets();
});

const textAnswer = (text: string) => ({ events: [created(), ...messageEvents(0, [text]), completed()] });

function callOverSocket(options: OpenAICodexResponsesOptions = {}, baseUrl = sockets.url) {
	return streamOpenAICodexResponses(codexModel(baseUrl), context, {
		apiKey: TOKEN,
		transport: "websocket",
		maxRetries: 0,
		...options,
	});
}

describe("openai-codex-responses over a WebSocket", () => {
	it("opens ws://…/codex/responses with the Codex headers and sends response.create without stream", async () => {
		sockets.enqueue(textAnswer("Hello over a socket"));
		const result = await callOverSocket({ sessionId: "session-1" }).result();
		expect(result.stopReason).toBe("stop");
		expect(result.content[0]).toMatchObject({ type: "text", text: "Hello over a socket" });
		expect(sockets.handshakes[0]).toMatchObject({
			authorization: `Bearer ${TOKEN}`,
			"chatgpt-account-id": ACCOUNT_ID,
			"openai-beta": "responses_websockets=2026-02-06",
			originator: "keel",
			session_id: "session-1",
		});
		expect(sockets.handshakes[0]["x-client-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
		expect(sockets.received[0]).toMatchObject({
			type: "response.create",
			model: "gpt-5.2-codex",
			instructions: "Be brief.",
			store: false,
			prompt_cache_key: "session-1",
		});
		expect(sockets.received[0]).not.toHaveProperty("stream");
	});

	it("streams reasoning, a tool call and usage, ending at response.done", async () => {
		const done = {
			type: "response.done",
			response: responseObject("completed", { usage: { input_tokens: 50, cached: 10, output_tokens: 7 } }),
		};
		sockets.enqueue({
			events: [created(), ...reasoningEvents(0, [["Plan"]]), ...functionCallEvents(1, "read", ['{"path":"b"}']), done],
		});
		const events: AssistantMessageEvent[] = [];
		const stream = callOverSocket();
		for await (const event of stream) events.push(event);
		const result = await stream.result();
		expect(result.stopReason).toBe("toolUse");
		expect(result.content[0]).toMatchObject({ type: "thinking", thinking: "Plan" });
		expect(result.content[1]).toMatchObject({ type: "toolCall", name: "read", arguments: { path: "b" } });
		expect(result.usage).toMatchObject({ input: 40, cacheRead: 10, output: 7 });
		expect(events.at(-1)?.type).toBe("done");
	});

	it("turns an in-stream error event into one error event and closes the socket", async () => {
		sockets.enqueue({ events: [created(), { type: "error", code: "invalid_request_error", message: "Bad input" }] });
		const events: AssistantMessageEvent[] = [];
		const stream = callOverSocket({ sessionId: "session-error" });
		for await (const event of stream) events.push(event);
		const result = await stream.result();
		expect(events.filter((event) => event.type === "error")).toHaveLength(1);
		expect(result.errorMessage).toBe("OpenAI Codex stream error invalid_request_error: Bad input");
		expect(keptOpenAICodexWebSocketCount()).toBe(0);
		await sockets.waitForNoOpenSockets();
	});

	it("reports a socket dropped mid-stream as one error that keeps the partial text", async () => {
		const partial = messageEvents(0, ["kept ", "text"]).slice(0, 3);
		sockets.enqueue({ events: [created(), ...partial], drop: true });
		const events: AssistantMessageEvent[] = [];
		const stream = callOverSocket({ sessionId: "session-drop" });
		for await (const event of stream) events.push(event);
		const result = await stream.result();
		expect(events.filter((event) => event.type === "error")).toHaveLength(1);
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toMatch(
			/^The connection to OpenAI Codex closed before the response was finished: WebSocket closed with code 1006/,
		);
		expect(result.content[0]).toMatchObject({ type: "text", text: "kept " });
		expect(keptOpenAICodexWebSocketCount()).toBe(0);
	});

	it("a server that sends only event types the decoder ignores ends through the idle watchdog, keeping the text", async () => {
		// Complete messages, but no progress: they count as keep-alives for a bounded time only.
		const partial = messageEvents(0, ["kept ", "text"]).slice(0, 3);
		sockets.enqueue({
			events: [created(), ...partial],
			trickle: { event: { type: "response.unknown_keep_alive" }, everyMs: 20 },
		});
		const result = await callOverSocket({ sessionId: "session-trickle", idleTimeoutMs: 500 }).result();
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toMatch(/\(idleTimeoutMs/);
		expect(result.content[0]).toMatchObject({ type: "text", text: "kept " });
	});

	it("aborts mid-stream keeping the text, and does not reuse that socket", async () => {
		sockets.enqueue({ events: [created(), ...messageEvents(0, ["so far"]).slice(0, 3)] });
		const controller = new AbortController();
		const stream = callOverSocket({ sessionId: "session-abort", signal: controller.signal });
		for await (const event of stream) if (event.type === "text_delta") controller.abort();
		const result = await stream.result();
		expect(result.stopReason).toBe("aborted");
		expect(result.content[0]).toMatchObject({ text: "so far" });
		expect(keptOpenAICodexWebSocketCount()).toBe(0);
		await sockets.waitForNoOpenSockets();
	});

	it("fails with the handshake's status when the endpoint refuses the socket", async () => {
		sockets.refuseStatus = 401;
		const result = await callOverSocket({ maxRetries: 2 }).result();
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toContain(
			"Could not open a WebSocket to OpenAI Codex: Unexpected server response: 401",
		);
		expect(sockets.handshakes).toHaveLength(1);
		expect(JSON.stringify(result)).not.toContain("signature-part-SECRET");
	});
	it("is reached through the registry's streamSimple with transport and the Codex options", async () => {
		sockets.enqueue(textAnswer("simple"));
		const options: OpenAICodexResponsesSimpleOptions = {
			apiKey: TOKEN,
			transport: "websocket",
			reasoning: "low",
			textVerbosity: "high",
			maxRetries: 0,
		};
		const result = await completeSimple(codexModel(sockets.url), context, options);
		expect(result.content[0]).toMatchObject({ text: "simple" });
		expect(sockets.received[0]).toMatchObject({ reasoning: { effort: "low" }, text: { verbosity: "high" } });
	});

	it("runs onPayload, onRawEvent for every message and onResponse (status 101) over the socket", async () => {
		sockets.enqueue(textAnswer("hooked"));
		const raw: string[] = [];
		const statuses: number[] = [];
		const result = await callOverSocket({
			onPayload: (payload) => ({ ...(payload as object), instructions: "Replaced." }),
			onRawEvent: (event) => {
				raw.push(event.data);
			},
			onResponse: (response) => {
				statuses.push(response.status);
			},
		}).result();
		expect(result.stopReason).toBe("stop");
		expect(sockets.received[0]).toMatchObject({ type: "response.create", instructions: "Replaced." });
		expect(statuses).toEqual([101]);
		expect(raw.map((data) => (JSON.parse(data) as { type: string }).type)).toEqual(
			textAnswer("hooked").events.map((event) => event.type),
		);
	});

	it("fails when the socket does not open within webSocketConnectTimeoutMs", async () => {
		// A TCP server that accepts the connection and never answers the handshake.
		const silent: Server = createServer(() => {});
		await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
		const port = (silent.address() as { port: number }).port;
		try {
			const result = await callOverSocket(
				{ transport: "websocket", webSocketConnectTimeoutMs: 50 },
				`http://127.0.0.1:${port}`,
			).result();
			expect(result.errorMessage).toBe("The WebSocket to OpenAI Codex did not open within 50 ms");
		} finally {
			silent.close();
		}
	});

	it("retries on a new socket when one drops before any content", async () => {
		sockets.enqueue({ events: [created()], drop: true }, textAnswer("second try"));
		const result = await callOverSocket({ sessionId: "session-retry", maxRetries: 1 }).result();
		expect(result.stopReason).toBe("stop");
		expect(result.content[0]).toMatchObject({ text: "second try" });
		expect(sockets.connections).toBe(2);
	});

	it("does not retry a handshake refused with 401", async () => {
		sockets.refuseStatus = 401;
		await callOverSocket({ maxRetries: 2 }).result();
		expect(sockets.handshakes).toHaveLength(1);
	});

	it("never lets the token appear in the message, even when the server echoes it", async () => {
		sockets.enqueue({ events: [created(), { type: "error", code: "invalid_token", message: `Rejected ${TOKEN}` }] });
		const result = await callOverSocket().result();
		expect(result.errorMessage).toContain("Rejected");
		expect(JSON.stringify(result)).not.toContain("signature-part-SECRET");
		expect(JSON.stringify(result)).not.toContain(TOKEN.slice(0, 20));
	});
});

describe("one WebSocket per sessionId", () => {
	it("sends a session's sequential calls over one connection", async () => {
		sockets.enqueue(textAnswer("first"), textAnswer("second"), textAnswer("third"));
		for (const expected of ["first", "second", "third"]) {
			const result = await callOverSocket({ sessionId: "session-reuse" }).result();
			expect(result.content[0]).toMatchObject({ text: expected });
		}
		expect(sockets.connections).toBe(1);
		expect(sockets.received).toHaveLength(3);
		expect(keptOpenAICodexWebSocketCount()).toBe(1);
	});

	it("opens one connection per session, and one per call without a sessionId", async () => {
		sockets.enqueue(textAnswer("a"), textAnswer("b"), textAnswer("c"), textAnswer("d"));
		await callOverSocket({ sessionId: "session-a" }).result();
		await callOverSocket({ sessionId: "session-b" }).result();
		await callOverSocket().result();
		await callOverSocket().result();
		expect(sockets.connections).toBe(4);
		expect(keptOpenAICodexWebSocketCount()).toBe(2);
	});

	it("gives a second call of a busy session a socket of its own, closed when it ends", async () => {
		// The first call's answer arrives only once the second call has sent its request.
		sockets.enqueue({ events: [created()] }, textAnswer("second"));
		const first = callOverSocket({ sessionId: "session-busy" });
		await sockets.waitForMessages(1);
		const second = await callOverSocket({ sessionId: "session-busy" }).result();
		expect(second.content[0]).toMatchObject({ text: "second" });
		expect(sockets.connections).toBe(2);
		// The second call's socket is closed when it ends; the session keeps the first one.
		await sockets.waitForOpenSockets(1);
		expect(keptOpenAICodexWebSocketCount()).toBe(1);
		closeOpenAICodexWebSockets();
		expect((await first.result()).stopReason).toBe("error");
	});

	it("opens a new connection when the token changes", async () => {
		sockets.enqueue(textAnswer("a"), textAnswer("b"));
		await callOverSocket({ sessionId: "session-token" }).result();
		await callOverSocket({ sessionId: "session-token", apiKey: `${TOKEN}x` }).result();
		expect(sockets.connections).toBe(2);
		expect(keptOpenAICodexWebSocketCount()).toBe(1);
	});

	it("keeps no token in the pool, only a fingerprint that still tells tokens apart", async () => {
		sockets.enqueue(textAnswer("a"), textAnswer("b"));
		await callOverSocket({ sessionId: "session-fingerprint" }).result();
		const [first] = keptSocketRecords();
		await callOverSocket({ sessionId: "session-fingerprint", apiKey: `${TOKEN}x` }).result();
		const [second] = keptSocketRecords();
		const pool = JSON.stringify([first, second]);
		expect(pool).not.toContain(TOKEN.slice(0, 12));
		expect(pool).not.toContain(TOKEN.slice(-12));
		expect(first.tokenFingerprint).not.toBe(second.tokenFingerprint);
	});

	it("closes a kept socket after webSocketIdleTimeoutMs without a request", async () => {
		sockets.enqueue(textAnswer("a"), textAnswer("b"));
		await callOverSocket({ sessionId: "session-idle", webSocketIdleTimeoutMs: 20 }).result();
		await sockets.waitForNoOpenSockets();
		expect(keptOpenAICodexWebSocketCount()).toBe(0);
		await callOverSocket({ sessionId: "session-idle", webSocketIdleTimeoutMs: 20 }).result();
		expect(sockets.connections).toBe(2);
	});

	it("opens a fresh socket when the server closed the kept one", async () => {
		sockets.enqueue({ ...textAnswer("a"), closeWith: 1001 }, textAnswer("b"));
		await callOverSocket({ sessionId: "session-server-closed" }).result();
		await sockets.waitForNoOpenSockets();
		const result = await callOverSocket({ sessionId: "session-server-closed" }).result();
		expect(result.content[0]).toMatchObject({ text: "b" });
		expect(sockets.connections).toBe(2);
	});
});

describe('transport "auto"', () => {
	const sseAnswer = () => responsesSse([created(), ...messageEvents(0, ["over SSE"]), completed()]);

	it("falls back to server-sent events when the WebSocket endpoint refuses, and says so in diagnostics", async () => {
		// The wire-test server answers the handshake (a GET) with a 503: the socket cannot be opened.
		wire.server.enqueue({ status: 503, body: { error: { message: "no sockets here" } } }, { body: sseAnswer() });
		const result = await callOverSocket({ transport: "auto", sessionId: "session-auto" }, wire.server.url).result();
		expect(result.stopReason).toBe("stop");
		expect(result.content[0]).toMatchObject({ text: "over SSE" });
		expect(wire.server.requests.map((request) => request.method)).toEqual(["GET", "POST"]);
		expect(wire.server.requests[0].headers.upgrade).toBe("websocket");
		expect(result.diagnostics?.[0]).toMatchObject({ type: "websocket_fallback" });
		expect(result.diagnostics?.[0].error?.message).toContain("Unexpected server response: 503");
	});

	it("falls back to server-sent events when the handshake gets no answer within webSocketConnectTimeoutMs", async () => {
		wire.server.enqueue({ stallBeforeHeaders: true }, { body: sseAnswer() });
		const result = await callOverSocket({ transport: "auto", webSocketConnectTimeoutMs: 50 }, wire.server.url).result();
		expect(result.content[0]).toMatchObject({ text: "over SSE" });
		expect(result.diagnostics?.[0].error?.message).toContain("did not open within 50 ms");
		expect(wire.server.requests.map((request) => request.method)).toEqual(["GET", "POST"]);
	});

	it("sends the same session's next calls over SSE without trying the socket again", async () => {
		wire.server.enqueue(
			{ status: 503, body: { error: { message: "no" } } },
			{ body: sseAnswer() },
			{ body: sseAnswer() },
		);
		await callOverSocket({ transport: "auto", sessionId: "session-sticky" }, wire.server.url).result();
		await callOverSocket({ transport: "auto", sessionId: "session-sticky" }, wire.server.url).result();
		expect(wire.server.requests.map((request) => request.method)).toEqual(["GET", "POST", "POST"]);
	});

	it("uses a WebSocket when it opens (no request reaches the SSE endpoint)", async () => {
		sockets.enqueue(textAnswer("socket"));
		const result = await callOverSocket({ transport: "auto" }).result();
		expect(result.content[0]).toMatchObject({ text: "socket" });
		expect(result.diagnostics).toBeUndefined();
		expect(sockets.connections).toBe(1);
	});
});
