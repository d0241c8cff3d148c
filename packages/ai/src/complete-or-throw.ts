// The throwing conveniences. stream() and complete() never throw: a failed call is an AssistantMessage
// whose stopReason is "error" or "aborted", which a short program can easily forget to check and so
// exit as if it had worked. These turn that message into an exception for the callers who want one.

import { complete, completeSimple } from "./stream.js";
import type {
	Api,
	AssistantMessage,
	Context,
	Model,
	ProviderStreamOptions,
	SimpleStreamOptions,
	StreamOptions,
} from "./types.js";

/** A call that ended with stopReason "error" or "aborted"; `assistantMessage` keeps what was received. */
export class CallFailedError extends Error {
	override name = "CallFailedError";

	constructor(readonly assistantMessage: AssistantMessage) {
		const reason = assistantMessage.stopReason;
		super(assistantMessage.errorMessage || (reason === "aborted" ? "Request was aborted" : "The model call failed"));
	}

	/** "error" or "aborted". */
	get stopReason(): "error" | "aborted" {
		return this.assistantMessage.stopReason as "error" | "aborted";
	}
}

/** True for a message that ended the call with an error or an abort. */
export function isFailedMessage(message: AssistantMessage): boolean {
	return message.stopReason === "error" || message.stopReason === "aborted";
}

/** Returns the message when the call succeeded, else throws a CallFailedError carrying it. */
export function throwIfFailed(message: AssistantMessage): AssistantMessage {
	if (isFailedMessage(message)) throw new CallFailedError(message);
	return message;
}

/** complete(), except that a failed or aborted call rejects with a CallFailedError. */
export async function completeOrThrow<TApi extends Api>(
	model: Model<TApi>,
	context: Context,
	options?: ProviderStreamOptions | StreamOptions,
): Promise<AssistantMessage> {
	return throwIfFailed(await complete(model, context, options));
}

/** completeSimple(), except that a failed or aborted call rejects with a CallFailedError. */
export async function completeSimpleOrThrow<TApi extends Api>(
	model: Model<TApi>,
	context: Context,
	options?: SimpleStreamOptions,
): Promise<AssistantMessage> {
	return throwIfFailed(await completeSimple(model, context, options));
}
