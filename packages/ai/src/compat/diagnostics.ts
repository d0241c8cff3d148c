// Diagnostics on an assistant message: what went wrong beside the answer (a retry, a dropped
// block), each with the error as plain data so the message stays serialisable.
import type { AssistantMessageDiagnostic } from "../types.js";
import { formatThrownValue } from "../utils/error-message.js";

export type DiagnosticErrorInfo = NonNullable<AssistantMessageDiagnostic["error"]>;

/** A thrown value as plain data: name, message, stack and code where it has them. */
export function extractDiagnosticError(error: unknown): DiagnosticErrorInfo {
	if (!(error instanceof Error)) return { name: "ThrownValue", message: formatThrownValue(error) };
	const code = (error as { code?: unknown }).code;
	return {
		name: error.name,
		message: error.message,
		...(error.stack ? { stack: error.stack } : {}),
		...(typeof code === "string" || typeof code === "number" ? { code } : {}),
	};
}

/** A diagnostic of the given type, stamped now, with the error as plain data. */
export function createAssistantMessageDiagnostic(
	type: string,
	error: unknown,
	details?: Record<string, unknown>,
): AssistantMessageDiagnostic {
	return { type, timestamp: Date.now(), error: extractDiagnosticError(error), ...(details ? { details } : {}) };
}

/** Sets the message's list to a new array with the diagnostic last (an array shared with a copy is not changed). */
export function appendAssistantMessageDiagnostic<T extends { diagnostics?: AssistantMessageDiagnostic[] }>(
	message: T,
	diagnostic: AssistantMessageDiagnostic,
): void {
	message.diagnostics = [...(message.diagnostics ?? []), diagnostic];
}
