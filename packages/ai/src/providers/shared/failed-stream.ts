import type { Api, Model, StopReason } from "../../types.js";
import {
	type AssistantMessageEventStream,
	createAssistantMessageEventStream,
	createEmptyAssistantMessage,
} from "../../utils/event-stream.js";

/** A stream that ends at once with one error event: for failures before a provider could start. */
export function failedStream(
	model: Model<Api>,
	errorMessage: string,
	reason: Extract<StopReason, "error" | "aborted"> = "error",
): AssistantMessageEventStream {
	const stream = createAssistantMessageEventStream();
	const message = createEmptyAssistantMessage(model.api, model.provider, model.id);
	message.stopReason = reason;
	message.errorMessage = errorMessage;
	stream.push({ type: "error", reason, error: message });
	stream.end();
	return stream;
}
