// The error a Models collection's operations throw, with a code saying which part failed.
import { formatThrownValue } from "../utils/error-message.js";

export type ModelsErrorCode = "model_source" | "model_validation" | "provider" | "stream" | "auth" | "oauth";

export class ModelsError extends Error {
	readonly code: ModelsErrorCode;

	constructor(code: ModelsErrorCode, message: string, options?: { cause?: unknown }) {
		// Callers often show only `message`, so the cause's own text is kept in it.
		super(withCauseText(message, options?.cause), options);
		this.name = "ModelsError";
		this.code = code;
	}
}

function withCauseText(message: string, cause: unknown): string {
	if (cause === undefined || cause === null) return message;
	const detail = formatThrownValue(cause).trim();
	return !detail || message.includes(detail) ? message : `${message}: ${detail}`;
}
