import { classifyError, type ErrorClassification } from "../../call/error-classification.js";
import { ProviderHttpError, ProviderStreamError } from "../../wire/provider-errors.js";
import { classifyOpenAIResponsesError } from "../openai-responses/errors.js";
import { WebSocketClosedError, WebSocketOpenError } from "./websocket-errors.js";

// The error types ChatGPT uses when a subscription's allowance is used up. Waiting a few seconds
// does not help (the allowance resets after minutes or hours), so these are not retried.
const USAGE_LIMIT_TYPES = new Set(["usage_limit_reached", "usage_not_included"]);

/**
 * The Responses classification (HTTP status, in-stream error codes), plus ChatGPT's usage limits:
 * `usage_limit_reached` / `usage_not_included` (a 429 whose body names the plan and when the
 * allowance resets) end the call at once with a message saying so. A WebSocket that could not be
 * opened is retried as a connection failure, unless its handshake status says otherwise (401); one
 * that closed mid-response is retried as a cut connection (the harness retries only before content).
 */
export function classifyOpenAICodexError(error: unknown): ErrorClassification {
	const usageLimit = describeUsageLimit(error);
	if (usageLimit) return { ...usageLimit, retryable: false };
	if (error instanceof WebSocketOpenError) {
		const retryable = error.status === undefined || classifyError({ status: error.status, message: "" }).retryable;
		return { message: error.message, status: error.status, retryable };
	}
	if (error instanceof WebSocketClosedError) return { message: error.message, retryable: true };
	return classifyOpenAIResponsesError(error);
}

function describeUsageLimit(error: unknown): Omit<ErrorClassification, "retryable"> | undefined {
	if (error instanceof ProviderStreamError && error.code && USAGE_LIMIT_TYPES.has(error.code)) {
		return { message: `You have hit your ChatGPT usage limit: ${error.message}` };
	}
	if (!(error instanceof ProviderHttpError)) return undefined;
	const detail = error.error;
	const type = typeof detail.type === "string" ? detail.type : typeof detail.code === "string" ? detail.code : "";
	if (!USAGE_LIMIT_TYPES.has(type)) return undefined;
	const plan = typeof detail.plan_type === "string" ? ` (${detail.plan_type} plan)` : "";
	const resetsIn = typeof detail.resets_in_seconds === "number" ? detail.resets_in_seconds : undefined;
	const when = resetsIn !== undefined ? ` Try again in about ${Math.max(1, Math.ceil(resetsIn / 60))} min.` : "";
	const what =
		type === "usage_not_included"
			? "Your ChatGPT plan does not include Codex usage"
			: "You have hit your ChatGPT usage limit";
	const said = detail.message.replace(/\.$/, "");
	return { message: `${error.status} ${what}${plan}: ${said}.${when}`, status: error.status };
}
