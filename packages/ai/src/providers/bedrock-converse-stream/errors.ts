import { classifyError, type ErrorClassification, parseRetryAfter } from "../../call/error-classification.js";
import { ProviderStreamError } from "../../wire/provider-errors.js";

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

interface AwsServiceError {
	name?: unknown;
	message?: unknown;
	$fault?: unknown;
	$metadata?: { httpStatusCode?: unknown };
	$response?: { headers?: Record<string, string> };
}

/**
 * Reads Bedrock's errors. The SDK raises a named exception (`ThrottlingException`, with the HTTP
 * status in `$metadata`) for an error answer and for an exception frame inside the stream; both read
 * `<status> <message> (<name>)`, retried when the name is a transient one. Other failures
 * (connection errors) are read like every provider's.
 */
export function classifyBedrockError(error: unknown): ErrorClassification {
	if (error instanceof ProviderStreamError) {
		return { message: error.message, retryable: error.code !== undefined && RETRYABLE_EXCEPTIONS.has(error.code) };
	}
	const candidate = error as AwsServiceError | null;
	if (!candidate || typeof candidate !== "object" || candidate.$fault === undefined) return classifyError(error);
	const name = typeof candidate.name === "string" ? candidate.name : "UnknownError";
	const text = typeof candidate.message === "string" && candidate.message !== "" ? candidate.message : "no message";
	const status =
		typeof candidate.$metadata?.httpStatusCode === "number" ? candidate.$metadata.httpStatusCode : undefined;
	const message = `${status === undefined ? "" : `${status} `}${text} (${name})`;
	const retryable = RETRYABLE_EXCEPTIONS.has(name) || (status !== undefined && (status === 429 || status >= 500));
	return { message, status, retryable, retryAfterMs: parseRetryAfter(candidate.$response?.headers) };
}
