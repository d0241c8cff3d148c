// The wire protocol between streamProxy (browser) and the proxy server: the request body, the
// slim SSE events, and which stream options and headers may cross from the browser to the server.
// Shared by client.ts and server.ts; it has no runtime dependency on Node or the DOM.
import type {
	AssistantMessage,
	AssistantMessageDiagnostic,
	AssistantMessageEvent,
	CacheRetention,
	Context,
	SimpleStreamOptions,
	StopReason,
	ThinkingBudgets,
	ThinkingLevel,
	ToolCall,
	Transport,
	Usage,
} from "@keel/ai";

/** The path streamProxy posts to, relative to `proxyUrl`. */
export const PROXY_STREAM_PATH = "/api/stream";

/**
 * The stream options a browser may ask for. Everything else is the server's business: the API key
 * (the server's keys only), callbacks, and retry counts (a client must not multiply upstream cost).
 */
export interface ProxyForwardedOptions {
	temperature?: number;
	/** Sampling parameters by wire name (top_p, top_k, …), each a number. */
	samplingParams?: Record<string, number>;
	maxTokens?: number;
	reasoning?: ThinkingLevel;
	thinkingBudgets?: ThinkingBudgets;
	cacheRetention?: CacheRetention;
	sessionId?: string;
	transport?: Transport;
	metadata?: Record<string, unknown>;
	/** Only headers that pass {@link isForwardableHeader}; the server filters them again. */
	headers?: Record<string, string>;
	maxRetryDelayMs?: number;
	timeoutMs?: number;
	idleTimeoutMs?: number;
}

/** The JSON body of `POST <proxyUrl>/api/stream`. The model is named, never described. */
export interface ProxyStreamRequest {
	/** The server looks this up in its own allow-list; the client's baseUrl and headers never travel. */
	model: { provider: string; id: string };
	context: Context;
	options: ProxyForwardedOptions;
}

/** What the final message carries besides its content, sent with `done` and `error`. */
export interface ProxyMessageSummary {
	usage: Usage;
	rawStopReason?: string;
	responseId?: string;
	responseModel?: string;
	diagnostics?: AssistantMessageDiagnostic[];
}

/**
 * An AssistantMessageEvent without `partial`: the client rebuilds the message from these, so each
 * SSE line costs the size of its delta rather than the size of the whole message so far.
 *
 * The shape is the pi proxy protocol's, so clients and servers that speak it interoperate with
 * Keel's: in that protocol end events carry the signature as `contentSignature`, and `done`/`error`
 * carry `usage` at the top level. Keel's server sends both spellings; Keel's client reads either
 * (the protocol's events have no `message`, and its `toolcall_end` no `toolCall`).
 */
export type ProxyAssistantMessageEvent =
	| { type: "start" }
	| { type: "text_start"; contentIndex: number; textSignature?: string }
	| { type: "text_delta"; contentIndex: number; delta: string }
	| { type: "text_end"; contentIndex: number; textSignature?: string; contentSignature?: string }
	| { type: "thinking_start"; contentIndex: number; redacted?: true; thinkingSignature?: string }
	| { type: "thinking_delta"; contentIndex: number; delta: string }
	| { type: "thinking_end"; contentIndex: number; thinkingSignature?: string; contentSignature?: string }
	| { type: "toolcall_start"; contentIndex: number; id: string; toolName: string; thoughtSignature?: string }
	| { type: "toolcall_delta"; contentIndex: number; delta: string }
	/** Carries the final tool call, so the client never depends on re-parsing the deltas itself. */
	| { type: "toolcall_end"; contentIndex: number; toolCall?: ToolCall }
	| {
			type: "done";
			reason: Extract<StopReason, "stop" | "length" | "toolUse">;
			usage?: Usage;
			message?: ProxyMessageSummary;
	  }
	| {
			type: "error";
			reason: Extract<StopReason, "error" | "aborted">;
			errorMessage?: string;
			usage?: Usage;
			message?: ProxyMessageSummary;
	  };

function summarise(message: AssistantMessage): ProxyMessageSummary {
	const summary: ProxyMessageSummary = { usage: message.usage };
	if (message.rawStopReason !== undefined) summary.rawStopReason = message.rawStopReason;
	if (message.responseId !== undefined) summary.responseId = message.responseId;
	if (message.responseModel !== undefined) summary.responseModel = message.responseModel;
	if (message.diagnostics) {
		// Stacks name server paths; the browser gets the message and the details only.
		summary.diagnostics = message.diagnostics.map((diagnostic) =>
			diagnostic.error ? { ...diagnostic, error: { ...diagnostic.error, stack: undefined } } : diagnostic,
		);
	}
	return summary;
}

/** Drops `partial` (and anything the client can rebuild) from a provider event. */
export function toProxyEvent(event: AssistantMessageEvent): ProxyAssistantMessageEvent {
	switch (event.type) {
		case "start":
			return { type: "start" };
		case "text_start": {
			const block = event.partial.content[event.contentIndex];
			const signature = block?.type === "text" ? block.textSignature : undefined;
			return signature === undefined
				? { type: "text_start", contentIndex: event.contentIndex }
				: { type: "text_start", contentIndex: event.contentIndex, textSignature: signature };
		}
		case "text_delta":
			return { type: "text_delta", contentIndex: event.contentIndex, delta: event.delta };
		case "text_end": {
			const block = event.partial.content[event.contentIndex];
			const signature = block?.type === "text" ? block.textSignature : undefined;
			return signature === undefined
				? { type: "text_end", contentIndex: event.contentIndex }
				: { type: "text_end", contentIndex: event.contentIndex, textSignature: signature, contentSignature: signature };
		}
		case "thinking_start": {
			const block = event.partial.content[event.contentIndex];
			const proxyEvent: ProxyAssistantMessageEvent = { type: "thinking_start", contentIndex: event.contentIndex };
			if (block?.type === "thinking") {
				if (block.redacted) proxyEvent.redacted = true;
				if (block.thinkingSignature !== undefined) proxyEvent.thinkingSignature = block.thinkingSignature;
			}
			return proxyEvent;
		}
		case "thinking_delta":
			return { type: "thinking_delta", contentIndex: event.contentIndex, delta: event.delta };
		case "thinking_end": {
			const block = event.partial.content[event.contentIndex];
			const signature = block?.type === "thinking" ? block.thinkingSignature : undefined;
			return signature === undefined
				? { type: "thinking_end", contentIndex: event.contentIndex }
				: {
						type: "thinking_end",
						contentIndex: event.contentIndex,
						thinkingSignature: signature,
						contentSignature: signature,
					};
		}
		case "toolcall_start": {
			const block = event.partial.content[event.contentIndex];
			const toolCall = block?.type === "toolCall" ? block : undefined;
			const proxyEvent: ProxyAssistantMessageEvent = {
				type: "toolcall_start",
				contentIndex: event.contentIndex,
				id: toolCall?.id ?? "",
				toolName: toolCall?.name ?? "",
			};
			if (toolCall?.thoughtSignature !== undefined) proxyEvent.thoughtSignature = toolCall.thoughtSignature;
			return proxyEvent;
		}
		case "toolcall_delta":
			return { type: "toolcall_delta", contentIndex: event.contentIndex, delta: event.delta };
		case "toolcall_end":
			return { type: "toolcall_end", contentIndex: event.contentIndex, toolCall: event.toolCall };
		case "done":
			return { type: "done", reason: event.reason, usage: event.message.usage, message: summarise(event.message) };
		case "error":
			return {
				type: "error",
				reason: event.reason,
				errorMessage: event.error.errorMessage ?? "Unknown error",
				usage: event.error.usage,
				message: summarise(event.error),
			};
	}
}

// Header names a browser must never choose: credentials (the server's keys are the point of the
// proxy), and hop-by-hop or framing headers that would let a client corrupt the upstream request.
const blockedHeaderNames = new Set([
	"authorization",
	"proxy-authorization",
	"cookie",
	"host",
	"content-length",
	"content-type",
	"connection",
	"keep-alive",
	"transfer-encoding",
	"te",
	"trailer",
	"upgrade",
	"expect",
	"forwarded",
	"origin",
	"referer",
]);

// Any name that looks like a credential, whatever the vendor calls it: x-api-key (Anthropic),
// api-key (Azure), x-goog-api-key (Google), ocp-apim-subscription-key, x-amz-security-token,
// cf-aig-authorization (Cloudflare AI Gateway), chatgpt-account-id (Codex). Also the billing-scope
// headers, which pick whose organization or project the server's key bills: openai-organization,
// openai-project, x-goog-user-project.
const credentialLikeName =
	/auth|key|token|secret|cookie|session|credential|password|account|signature|organization|project|^x-amz-/i;

/**
 * True when a browser may set this request header on the upstream provider call. Provider auth
 * headers are never forwardable, whatever their spelling, nor are framing and hop-by-hop headers.
 */
export function isForwardableHeader(name: string): boolean {
	// Checked exactly as it will be sent: a name with surrounding spaces is not a valid header name
	// (RFC 9110 token), and trimming here while sending the original would check one string and
	// send another.
	const lower = name.toLowerCase();
	if (!/^[a-z0-9!#$%&'*+.^_`|~-]+$/.test(lower)) return false;
	if (blockedHeaderNames.has(lower) || lower.startsWith("proxy-") || lower.startsWith("sec-")) return false;
	return !credentialLikeName.test(lower);
}

/** The forwardable headers of `headers`, or undefined when none remain. */
export function filterForwardableHeaders(
	headers: Record<string, string> | undefined,
	isAllowed: (name: string) => boolean = isForwardableHeader,
): Record<string, string> | undefined {
	if (!headers) return undefined;
	const kept: Record<string, string> = {};
	let count = 0;
	for (const [name, value] of Object.entries(headers)) {
		if (typeof value !== "string" || !isAllowed(name)) continue;
		kept[name] = value;
		count++;
	}
	return count > 0 ? kept : undefined;
}

/**
 * Beta headers (`anthropic-beta`, `OpenAI-Beta`, any name ending in `-beta`) turn on features billed
 * to the server's key, so each feature must be allowed by the server. The value is a comma-separated
 * list of feature names (Anthropic: https://docs.anthropic.com/en/api/beta-headers).
 */
export function isBetaHeader(name: string): boolean {
	return /(^|-)beta$/i.test(name);
}

/**
 * `headers` with every beta header reduced to the features `allowed` lists for it (keys in lower
 * case); a beta header with no allowed feature is dropped. Undefined when no header remains.
 */
export function filterBetaHeaders(
	headers: Record<string, string> | undefined,
	allowed: Readonly<Record<string, readonly string[]>>,
): Record<string, string> | undefined {
	if (!headers) return undefined;
	const kept: Record<string, string> = {};
	let count = 0;
	for (const [name, value] of Object.entries(headers)) {
		if (isBetaHeader(name)) {
			const allowedFeatures = allowed[name.toLowerCase()] ?? [];
			const features = value
				.split(",")
				.map((feature) => feature.trim())
				.filter((feature) => feature !== "" && allowedFeatures.includes(feature));
			if (features.length === 0) continue;
			kept[name] = features.join(",");
		} else {
			kept[name] = value;
		}
		count++;
	}
	return count > 0 ? kept : undefined;
}

/** The forwardable subset of a caller's options, as streamProxy sends it. */
export function pickForwardedOptions(options: SimpleStreamOptions): ProxyForwardedOptions {
	const forwarded: ProxyForwardedOptions = {};
	if (options.temperature !== undefined) forwarded.temperature = options.temperature;
	if (options.samplingParams !== undefined) forwarded.samplingParams = options.samplingParams as Record<string, number>;
	if (options.maxTokens !== undefined) forwarded.maxTokens = options.maxTokens;
	if (options.reasoning !== undefined) forwarded.reasoning = options.reasoning;
	if (options.thinkingBudgets !== undefined) forwarded.thinkingBudgets = options.thinkingBudgets;
	if (options.cacheRetention !== undefined) forwarded.cacheRetention = options.cacheRetention;
	if (options.sessionId !== undefined) forwarded.sessionId = options.sessionId;
	if (options.transport !== undefined) forwarded.transport = options.transport;
	if (options.metadata !== undefined) forwarded.metadata = options.metadata;
	const headers = filterForwardableHeaders(options.headers);
	if (headers) forwarded.headers = headers;
	if (options.maxRetryDelayMs !== undefined) forwarded.maxRetryDelayMs = options.maxRetryDelayMs;
	if (options.timeoutMs !== undefined) forwarded.timeoutMs = options.timeoutMs;
	if (options.idleTimeoutMs !== undefined) forwarded.idleTimeoutMs = options.idleTimeoutMs;
	return forwarded;
}
