import { classifyError, type ErrorClassification } from "../../call/error-classification.js";
import { ProviderHttpError, ProviderStreamError } from "../../wire/provider-errors.js";

// Bedrock's exceptions that a later attempt may not meet: throttling, a busy or not yet loaded
// model, a server fault, a model that timed out or broke its stream. Everything else
// (ValidationException, AccessDeniedException, ResourceNotFoundException, ServiceQuotaExceededException
// for an account's quota …) fails the same way again.
// @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html#API_runtime_ConverseStream_Errors
const RETRYABLE_EXCEPTIONS = new Set([
	"ThrottlingException",
	"ServiceUnavailableException",
	"InternalServerException",
	"ModelNotReadyException",
	"ModelTimeoutException",
	"ModelStreamErrorException",
]);

/** The exception members a ConverseStream response may carry in place of an event. */
export const STREAM_EXCEPTION_EVENTS = [
	"internalServerException",
	"modelStreamErrorException",
	"validationException",
	"throttlingException",
	"serviceUnavailableException",
] as const;

/** An exception member of the stream (`{throttlingException: {message}}`) as the error the harness classifies. */
export function bedrockStreamException(member: string, value: unknown): ProviderStreamError {
	const name = member.charAt(0).toUpperCase() + member.slice(1);
	const message = (value as { message?: unknown } | null)?.message;
	return new ProviderStreamError(`${typeof message === "string" ? message : "no message"} (${name})`, name);
}

/**
 * Reads Bedrock's errors. An error answer reads `<status> <message> (<exception>)` (see
 * transport.ts), an exception frame inside the stream `<message> (<exception>)`; both are retried
 * when the exception is a transient one, an answer also for 429 and 5xx. Other failures
 * (connection errors) are read like every provider's.
 */
export function classifyBedrockError(error: unknown): ErrorClassification {
	if (error instanceof ProviderStreamError) {
		return { message: error.message, retryable: error.code !== undefined && RETRYABLE_EXCEPTIONS.has(error.code) };
	}
	const classification = classifyError(error);
	if (error instanceof ProviderHttpError && error.error.type && RETRYABLE_EXCEPTIONS.has(error.error.type)) {
		return { ...classification, retryable: true };
	}
	return classification;
}
