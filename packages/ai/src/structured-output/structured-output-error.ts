import type { AssistantMessage } from "../types.js";

/** Why a structured call gave no object. */
export type StructuredOutputFailure =
	/** The call itself failed or was aborted: `assistantMessage.errorMessage` says why. */
	| "request_failed"
	/** The answer was not JSON, or not JSON matching the schema, even after the repair round trip. */
	| "invalid_output";

/**
 * `completeObject` found no valid object; `streamObject` ends with it. Carries the raw text of the
 * last answer (for logs or a manual repair), the validation errors that text produced, and the
 * model's last message (usage, stop reason, error text).
 */
export class StructuredOutputError extends Error {
	override readonly name = "StructuredOutputError";

	constructor(
		message: string,
		readonly failure: StructuredOutputFailure,
		/** The last answer's JSON text as the model wrote it ("" when there was none). */
		readonly rawText: string,
		/** The last answer's assistant message. */
		readonly assistantMessage: AssistantMessage,
		/** What was wrong with the last answer (parse error or one line per failing path). */
		readonly validationErrors?: string,
	) {
		super(message);
	}
}
