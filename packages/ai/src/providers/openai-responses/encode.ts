import type {
	ResponseCreateParamsStreaming,
	ResponseInputItem,
	Tool as ResponsesTool,
} from "openai/resources/responses/responses";
import type { ReasoningEffort } from "openai/resources/shared";
import { samplingParamsForRequest } from "../../message/sampling-params.js";
import { resolveCacheRetention } from "../../message/simple-options.js";
import { normalizeOpenAIResponsesToolCallId } from "../../message/tool-call-ids.js";
import { transformMessages } from "../../message/transform-messages.js";
import { providerToolSchema } from "../../schema/provider-tool-schema.js";
import type { Api, Context, Model, Tool } from "../../types.js";
import { sanitizeSurrogates } from "../../utils/sanitize-unicode.js";
import { keepSystemMessagesInPlace } from "../../utils/system-messages.js";
import { buildGitHubCopilotHeaders } from "../../wire/github-copilot-headers.js";
import { mergeHeaders } from "../../wire/headers.js";
import { encodeResponsesInput } from "./encode-messages.js";
import { mapReasoningEffort, reasoningEffortForOff } from "./encode-reasoning.js";
import type { OpenAIResponsesOptions } from "./options.js";

/** What encode needs beyond the context; Azure passes its deployment name as `modelName`. */
export interface ResponsesEncodeSettings {
	/** Sent as `model`; default `model.id`. */
	modelName?: string;
}

/** Builds the `responses.create` body (stream: true) from a context and options. Pure. */
export function encodeOpenAIResponsesRequest(
	model: Model<Api>,
	context: Context,
	options: OpenAIResponsesOptions = {},
	settings: ResponsesEncodeSettings = {},
): ResponseCreateParamsStreaming {
	const input: ResponseInputItem[] = [];
	// Leading system messages join the prompt; later ones become `developer` / `system` input
	// items where they stand (encodeResponsesInput).
	const { systemPrompt, messages: conversation, tools } = keepSystemMessagesInPlace(context);
	if (systemPrompt) {
		// Reasoning models take instructions in the developer role; others only know system.
		input.push({ role: model.reasoning ? "developer" : "system", content: sanitizeSurrogates(systemPrompt) });
	}
	const messages = transformMessages(conversation, model, normalizeOpenAIResponsesToolCallId);
	input.push(...encodeResponsesInput(messages, model));

	// We never ask the service to keep responses (Azure included): history is replayed in full,
	// reasoning as the encrypted content requested below.
	const body: ResponseCreateParamsStreaming = {
		model: settings.modelName ?? model.id,
		input,
		stream: true,
	};
	body.store = false;
	if (options.maxTokens !== undefined && options.maxTokens > 0) body.max_output_tokens = options.maxTokens;
	if (options.temperature !== undefined) body.temperature = options.temperature;
	if (options.serviceTier !== undefined) body.service_tier = options.serviceTier;

	const retention = resolveCacheRetention(options.cacheRetention);
	if (options.sessionId && retention !== "none") body.prompt_cache_key = options.sessionId;
	if (retention === "long" && supportsLongCacheRetention(model)) body.prompt_cache_retention = "24h";

	if (tools && tools.length > 0) body.tools = tools.map(encodeResponsesTool);
	if (options.responseFormat) {
		// https://platform.openai.com/docs/api-reference/responses/create#responses-create-text
		const { name, description, schema, strict } = options.responseFormat;
		body.text = {
			format: {
				type: "json_schema",
				name,
				schema: schema as Record<string, unknown>,
				strict: strict === true,
				...(description ? { description } : {}),
			},
		};
	}

	if (model.reasoning) {
		// Without store, reasoning survives between turns only as the encrypted content we replay;
		// it is asked for even with reasoning off, since low-effort turns still produce reasoning items.
		body.include = ["reasoning.encrypted_content"];
		if (options.reasoningEffort !== undefined || options.reasoningSummary !== undefined) {
			const level = options.reasoningEffort ?? "medium";
			const effort = level === "none" ? "none" : mapReasoningEffort(model, level);
			if (effort !== undefined) {
				body.reasoning = { effort: effort as ReasoningEffort, summary: options.reasoningSummary ?? "auto" };
			}
		} else {
			const off = reasoningEffortForOff(model);
			if (off !== undefined) body.reasoning = { effort: off as ReasoningEffort };
		}
	}
	// Last, so a sampling key (top_p, …) overrides a named field, as on Chat Completions. The Codex
	// endpoint, which shares this encoder, rejects them.
	// @see https://platform.openai.com/docs/api-reference/responses/create#responses-create-top_p
	if (model.api !== "openai-codex-responses") Object.assign(body, samplingParamsForRequest(model, options));
	return body;
}

/** 24 h cache retention exists on api.openai.com; other hosts opt in with compat.supportsLongCacheRetention. */
function supportsLongCacheRetention(model: Model<Api>): boolean {
	const compat = model.compat as { supportsLongCacheRetention?: boolean } | undefined;
	return compat?.supportsLongCacheRetention ?? model.baseUrl.includes("api.openai.com");
}

/** Tools as Responses function tools. strict is off unless the tool asks: TypeBox schemas are not all strict-mode compatible. */
export function encodeResponsesTool(tool: Tool): ResponsesTool {
	return {
		type: "function",
		name: tool.name,
		description: tool.description,
		parameters: providerToolSchema(tool, { api: "OpenAI Responses", strict: tool.strict === true }),
		strict: tool.strict === true,
	};
}

/**
 * Request headers but the credential: model defaults, then the session header where the host wants
 * it, then (GitHub Copilot) the per-request headers, then options (last wins). Merged
 * case-insensitively; keys come out lower-cased.
 */
export function buildOpenAIResponsesHeaders(
	model: Model<Api>,
	options: OpenAIResponsesOptions = {},
	context?: Context,
): Record<string, string> {
	const compat = model.compat as { sendSessionIdHeader?: boolean } | undefined;
	const session = compat?.sendSessionIdHeader && options.sessionId ? { session_id: options.sessionId } : undefined;
	const copilot = model.provider === "github-copilot" && context ? buildGitHubCopilotHeaders(context) : undefined;
	return mergeHeaders(model.headers, session, copilot, options.headers);
}
