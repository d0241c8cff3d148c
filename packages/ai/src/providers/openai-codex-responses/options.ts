import type { OpenAIResponsesOptions, OpenAIResponsesSimpleOptions } from "../openai-responses/options.js";

/**
 * Options for the Codex Responses endpoint of a ChatGPT subscription. The Responses options apply
 * (reasoning effort and summary, service tier, `sessionId` as the prompt cache key), except
 * `maxTokens` and `temperature`, which this endpoint does not take and which are not sent.
 * `transport` chooses server-sent events ("sse", the default), a WebSocket ("websocket"; the same
 * as "websocket-cached": a socket is always kept per `sessionId`), or a WebSocket that falls back
 * to server-sent events when it cannot be opened ("auto").
 */
export interface OpenAICodexResponsesOptions extends OpenAIResponsesOptions {
	/** `text.verbosity`: how long the answers are; default "medium". */
	textVerbosity?: "low" | "medium" | "high";
	/**
	 * The ChatGPT account the request is billed to (the `chatgpt-account-id` header). Default: read
	 * from the access token's claims, which is where ChatGPT puts it.
	 */
	accountId?: string;
	/** How long opening a WebSocket may take before the attempt fails (or "auto" uses SSE), in ms. Default 15000. */
	webSocketConnectTimeoutMs?: number;
	/**
	 * How long a WebSocket kept for a `sessionId` stays open without a request, in ms. Default 300000
	 * (5 minutes). `closeOpenAICodexWebSockets()` closes every kept socket at once.
	 */
	webSocketIdleTimeoutMs?: number;
}

/** Options of the unified call, plus the Codex settings that have no unified form. */
export type OpenAICodexResponsesSimpleOptions = OpenAIResponsesSimpleOptions &
	Pick<
		OpenAICodexResponsesOptions,
		"textVerbosity" | "accountId" | "webSocketConnectTimeoutMs" | "webSocketIdleTimeoutMs"
	>;
