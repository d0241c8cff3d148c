import type { AssistantMessageBuilder } from "../message/assistant-message-builder.js";
import type { Api, Model, ResponseInfo, StreamOptions } from "../types.js";

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
	/** Call for every chunk received: restarts the idle watchdog. */
	touch(): void;
	/** Runs `onPayload`; its non-undefined result replaces the payload. */
	preparePayload<T>(payload: T): Promise<T>;
	/** Runs `onResponse` once per attempt with the HTTP status and headers. */
	reportResponse(response: ResponseInfo): Promise<void>;
}

/** Marks an error that must end the call without a retry (bad input, a caller's callback that threw). */
export class NonRetryableError extends Error {
	override name = "NonRetryableError";
}
