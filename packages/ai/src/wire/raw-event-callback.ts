// Runs the caller's `onRawEvent` for the shared HTTP transport. Looked up once per attempt, so an
// unset callback costs one branch per event; a synchronous callback costs no extra async step.

import { NonRetryableError, type ProviderAttempt } from "../call/provider-attempt.js";
import type { Api, Model, RawStreamEvent } from "../types.js";
import { formatThrownValue } from "../utils/error-message.js";

/** Hands one raw event to the callback; returns a promise only when the callback returned one. */
export type RawEventReporter = (event: RawStreamEvent) => Promise<void> | undefined;

/**
 * The attempt's `onRawEvent` as a reporter, or undefined when none is set. Its exceptions (and
 * rejections) are the caller's bugs, as with `onPayload`: they end the call without a retry, which
 * would replay events the callback has already seen.
 */
export function rawEventReporter<TApi extends Api>(attempt: ProviderAttempt<TApi>): RawEventReporter | undefined {
	const onRawEvent = attempt.options.onRawEvent;
	if (!onRawEvent) return undefined;
	const model = attempt.model as Model<Api>;
	return (event) => {
		let returned: unknown;
		try {
			returned = onRawEvent(event, model);
		} catch (error) {
			throw callbackError(error);
		}
		if (!isPromiseLike(returned)) return undefined;
		return Promise.resolve(returned).then(
			() => undefined,
			(error: unknown) => {
				throw callbackError(error);
			},
		);
	};
}

function callbackError(error: unknown): NonRetryableError {
	return new NonRetryableError(formatThrownValue(error), { cause: error });
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
	return typeof (value as PromiseLike<unknown> | undefined)?.then === "function";
}
