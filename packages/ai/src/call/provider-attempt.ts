import type { AssistantMessageBuilder } from "../message/assistant-message-builder.js";
import type { Api, Model, ResponseInfo, StreamOptions } from "../types.js";
import { formatThrownValue } from "../utils/error-message.js";

/** What a provider's transport gets for one attempt. */
export interface ProviderAttempt<TApi extends Api> {
	model: Model<TApi>;
	options: StreamOptions;
	/** `options.apiKey`, else the environment's key for `model.provider`, else undefined. */
	apiKey: string | undefined;
	builder: AssistantMessageBuilder;
	/** Aborts on the caller's abort, on `timeoutMs`, on the idle watchdog and when the attempt ends: pass it to fetch. */
	signal: AbortSignal;
	/** 0 for the first attempt. */
	attempt: number;
	/**
	 * Call when the stream made progress (the response began, a chunk moved the message on):
	 * restarts the idle watchdog. The read loop (wire/pump.ts) calls it; a transport with a loop
	 * of its own must call it only for progress.
	 */
	touch(): void;
	/**
	 * Call for traffic that is no progress (keep-alive comments, pings, ignored events, part of a
	 * line): restarts the idle watchdog only for a bounded time after the last progress.
	 */
	keepAlive(): void;
	/** Runs `onPayload`; its non-undefined result replaces the payload. */
	preparePayload<T>(payload: T): Promise<T>;
	/** Runs `onResponse` once per attempt with the HTTP status and headers. */
	reportResponse(response: ResponseInfo): Promise<void>;
}

/** Marks an error that must end the call without a retry (bad input, a caller's callback that threw). */
export class NonRetryableError extends Error {
	override name = "NonRetryableError";
}

/**
 * Runs a provider's encoder. Input it rejects fails the call at once, without a retry: the same
 * input would fail again. A NonRetryableError keeps its message; any other failure is described,
 * after `context` when given ("Could not build the Mistral request for \"x\"").
 */
export function encodeOrFail<T>(encode: () => T, context?: string): T {
	try {
		return encode();
	} catch (error) {
		if (error instanceof NonRetryableError) throw error;
		const detail = formatThrownValue(error);
		throw new NonRetryableError(context ? `${context}: ${detail}` : detail, { cause: error });
	}
}
