import type { ResponseCreateParamsStreaming } from "openai/resources/responses/responses";
import type { Api, Context, Model } from "../../types.js";
import { sanitizeSurrogates } from "../../utils/sanitize-unicode.js";
import { keepSystemMessagesInPlace } from "../../utils/system-messages.js";
import { mergeHeaders } from "../../wire/headers.js";
import { encodeOpenAIResponsesRequest } from "../openai-responses/encode.js";
import type { OpenAICodexResponsesOptions } from "./options.js";

/** The Codex request body: a Responses body with the instructions and verbosity the endpoint expects. */
export type OpenAICodexRequestBody = ResponseCreateParamsStreaming & {
	instructions: string;
	text: { verbosity: "low" | "medium" | "high" };
	tool_choice: "auto";
	parallel_tool_calls: boolean;
};

/**
 * The Responses body (the openai-responses encoder: input items, tools, reasoning and its
 * encrypted content, `store: false`, `stream: true`, `prompt_cache_key`), changed where the Codex
 * endpoint differs: the system prompt goes in `instructions` rather than an input message, and
 * `max_output_tokens` and `temperature` are left out because the endpoint rejects them. System
 * messages before the conversation join `instructions`; later ones are `developer` input items
 * where they stand. Pure.
 */
export function encodeOpenAICodexRequest(
	model: Model<Api>,
	context: Context,
	options: OpenAICodexResponsesOptions = {},
): OpenAICodexRequestBody {
	const { systemPrompt, messages, tools } = keepSystemMessagesInPlace(context);
	const responses = encodeOpenAIResponsesRequest(
		model,
		{ systemPrompt: undefined, messages, tools },
		// The endpoint rejects sampling parameters too; the model's own are not sent either.
		{ ...options, maxTokens: undefined, temperature: undefined, samplingParams: undefined },
	);
	return {
		...responses,
		instructions: sanitizeSurrogates(systemPrompt ?? ""),
		text: { verbosity: options.textVerbosity ?? "medium" },
		tool_choice: "auto",
		parallel_tool_calls: true,
	};
}

/** What the request headers are built from, besides the model and options. */
export interface CodexHeaderInput {
	accountId: string;
	/** Sent as `x-client-request-id` on a WebSocket handshake. */
	requestId?: string;
}

/**
 * Headers common to both transports, without the credential: the account, `originator`, the
 * session (which the server uses to route a conversation's requests to the same cache), then the
 * model's and the caller's headers (last wins, case-insensitively).
 */
export function buildOpenAICodexHeaders(
	model: Model<Api>,
	options: OpenAICodexResponsesOptions,
	input: CodexHeaderInput,
): Record<string, string> {
	const own: Record<string, string> = { "chatgpt-account-id": input.accountId, originator: "keel" };
	const userAgent = runtimeUserAgent();
	if (userAgent) own["user-agent"] = userAgent;
	if (options.sessionId) own.session_id = options.sessionId;
	return mergeHeaders(own, model.headers, options.headers);
}

/** `keel (<platform>; <arch>)` where the runtime says what it runs on; browsers set their own. */
function runtimeUserAgent(): string | undefined {
	const runtime = (globalThis as { process?: { platform?: unknown; arch?: unknown } }).process;
	if (typeof runtime?.platform !== "string") return undefined;
	return `keel (${runtime.platform}; ${String(runtime.arch)})`;
}
