import { encodeOrFail, type ProviderAttempt } from "../../call/provider-attempt.js";
import type { Context, Transport } from "../../types.js";
import { mergeHeaders } from "../../wire/headers.js";
import { runSseAttempt } from "../../wire/http-transport.js";
import { requireBaseUrl } from "../../wire/require-base-url.js";
import { OpenAIResponsesDecoder } from "../openai-responses/decode.js";
import { readChatGPTAccountId } from "./account-id.js";
import { buildOpenAICodexHeaders, encodeOpenAICodexRequest } from "./encode.js";
import { codexResponsesUrl, webSocketUrl } from "./endpoint.js";
import type { OpenAICodexResponsesOptions } from "./options.js";
import { parseCodexEvent } from "./parse-event.js";
import { WebSocketOpenError } from "./websocket-errors.js";
import type { SocketLease } from "./websocket-pool.js";
import { leaseCodexWebSocket, openCodexWebSocket, streamResponseOverWebSocket } from "./websocket-session.js";

/** Names the provider in error messages. */
export const CODEX_LABEL = "OpenAI Codex";

export const DEFAULT_WEBSOCKET_CONNECT_TIMEOUT_MS = 15_000;
export const DEFAULT_WEBSOCKET_IDLE_TIMEOUT_MS = 5 * 60_000;

// The beta flags the endpoint expects on each transport.
const SSE_BETA = "responses=experimental";
const WEBSOCKET_BETA = "responses_websockets=2026-02-06";

// Sessions whose WebSocket could not be opened with transport "auto": their next calls go straight
// to server-sent events instead of paying for a failing handshake each time. Bounded: the oldest
// sessions are forgotten first.
const MAX_REMEMBERED_SSE_SESSIONS = 256;
const sseOnlySessions = new Set<string>();

/**
 * One attempt against `{baseUrl}/codex/responses` with the ChatGPT access token the caller holds
 * (options.apiKey or OPENAI_CODEX_ACCESS_TOKEN) and the account id from its claims. The body is
 * the Responses body (see encode.ts); events are read by the Responses decoder, over server-sent
 * events or a WebSocket as `options.transport` says (default "sse").
 */
export async function runOpenAICodexAttempt(
	attempt: ProviderAttempt<"openai-codex-responses">,
	context: Context,
	options: OpenAICodexResponsesOptions,
): Promise<void> {
	const { model } = attempt;
	const token = attempt.apiKey ?? "";
	const accountId = options.accountId ?? readChatGPTAccountId(token);
	const url = codexResponsesUrl(requireBaseUrl(model));
	const body = encodeOrFail(() => encodeOpenAICodexRequest(model, context, options));
	const common = buildOpenAICodexHeaders(model, options, { accountId });
	const credential = { authorization: `Bearer ${token}` };

	const lease = await webSocketLease(attempt, options, { url, token, credential, common });
	if (lease) return streamResponseOverWebSocket(attempt, lease, body, CODEX_LABEL);

	await runSseAttempt(attempt, {
		label: CODEX_LABEL,
		url,
		headers: mergeHeaders({ accept: "text/event-stream", "openai-beta": SSE_BETA, ...credential }, common),
		body,
		createDecoder: (payload) =>
			new OpenAIResponsesDecoder(attempt.builder, CODEX_LABEL, payload.service_tier ?? undefined),
		parseEvent: (event) => parseCodexEvent(event, CODEX_LABEL),
	});
}

interface SocketTarget {
	url: string;
	token: string;
	credential: Record<string, string>;
	common: Record<string, string>;
}

/**
 * The socket to send on, or undefined for server-sent events: always for "sse"; for "auto" when
 * the socket cannot be opened (noted in the message's diagnostics). With "websocket" a socket that
 * cannot be opened fails the attempt.
 */
async function webSocketLease(
	attempt: ProviderAttempt<"openai-codex-responses">,
	options: OpenAICodexResponsesOptions,
	target: SocketTarget,
): Promise<SocketLease | undefined> {
	const transport: Transport = options.transport ?? "sse";
	if (transport === "sse") return undefined;
	const key = options.sessionId ? `${target.url}\n${options.sessionId}` : undefined;
	if (transport === "auto" && key !== undefined && sseOnlySessions.has(key)) return undefined;
	const headers = mergeHeaders(
		{ "openai-beta": WEBSOCKET_BETA, "x-client-request-id": newRequestId(), ...target.credential },
		target.common,
	);
	try {
		return await leaseCodexWebSocket({
			key,
			token: target.token,
			idleTimeoutMs: options.webSocketIdleTimeoutMs ?? DEFAULT_WEBSOCKET_IDLE_TIMEOUT_MS,
			open: () =>
				openCodexWebSocket(webSocketUrl(target.url), headers, {
					label: CODEX_LABEL,
					connectTimeoutMs: options.webSocketConnectTimeoutMs ?? DEFAULT_WEBSOCKET_CONNECT_TIMEOUT_MS,
					signal: attempt.signal,
				}),
		});
	} catch (error) {
		if (transport !== "auto" || !(error instanceof WebSocketOpenError) || attempt.signal.aborted) throw error;
		if (key !== undefined) rememberSseSession(key);
		attempt.builder.addDiagnostic(
			"websocket_fallback",
			`${error.message}; the request was sent over server-sent events instead`,
		);
		return undefined;
	}
}

function rememberSseSession(key: string): void {
	sseOnlySessions.add(key);
	if (sseOnlySessions.size > MAX_REMEMBERED_SSE_SESSIONS) {
		const oldest = sseOnlySessions.values().next().value;
		if (oldest !== undefined) sseOnlySessions.delete(oldest);
	}
}

/** Forgets which sessions fell back to server-sent events (they try the WebSocket again). */
export function forgetOpenAICodexSseFallbacks(): void {
	sseOnlySessions.clear();
}

function newRequestId(): string {
	const crypto = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
	return crypto?.randomUUID ? crypto.randomUUID() : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}
