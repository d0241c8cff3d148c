import type { Api, Model, StopReason } from "../types.js";
import { createErrorMessage } from "../utils/error-message.js";
import {
	type AssistantMessageEventStream,
	createAssistantMessageEventStream,
	createEmptyAssistantMessage,
} from "../utils/event-stream.js";

/**
 * A stream that ends at once: `start`, then one error event. For failures found before any provider
 * runs (no model, an API Keel does not implement, a registered provider that threw).
 */
export function failedStream(
	model: Pick<Model<Api>, "api" | "provider" | "id">,
	errorMessage: string,
	reason: Extract<StopReason, "error" | "aborted"> = "error",
): AssistantMessageEventStream {
	const stream = createAssistantMessageEventStream();
	stream.push({ type: "start", partial: createEmptyAssistantMessage(model.api, model.provider, model.id) });
	stream.push({ type: "error", reason, error: createErrorMessage(model, reason, errorMessage) });
	stream.end();
	return stream;
}
