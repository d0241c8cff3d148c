import type { Api, AssistantMessage, Model, StopReason } from "../types.js";
import { createEmptyAssistantMessage } from "./empty-assistant-message.js";

/**
 * The text of anything that was thrown: an Error's message (its name when the message is empty), a
 * string as it is, anything else as JSON (or `String()` when it cannot be serialised).
 */
export function formatThrownValue(value: unknown): string {
	if (value instanceof Error) return value.message || value.name;
	if (typeof value === "string") return value;
	try {
		return JSON.stringify(value) ?? String(value);
	} catch {
		return String(value);
	}
}

/**
 * The assistant message a failed call ends with. From a partial message it keeps the content and usage
 * received so far (copying the content array, so later changes to the partial do not leak in); from a
 * model it starts empty.
 */
export function createErrorMessage(
	from: AssistantMessage | Pick<Model<Api>, "api" | "provider" | "id">,
	reason: Extract<StopReason, "error" | "aborted">,
	errorMessage: string,
): AssistantMessage {
	const base =
		"role" in from
			? { ...from, content: [...from.content] }
			: createEmptyAssistantMessage(from.api, from.provider, from.id);
	base.stopReason = reason;
	base.errorMessage = errorMessage;
	return base;
}
