// How a failed call ends: the text of its error event, through the builder (which keeps the
// content received so far, and redacts the key from the text). Every way a provider call can fail ends in one of these functions.

import type { AssistantMessageBuilder } from "../message/assistant-message-builder.js";
import type { Api, Model } from "../types.js";
import { formatThrownValue } from "../utils/error-message.js";
import { type StopCause, stopMessage, stopReason } from "./call-lifetime.js";
import { findNetworkCause } from "./connection-error.js";
import type { ErrorClassification } from "./error-classification.js";

/** What the harness knows about a call that failed. */
export interface CallFailureContext {
	model: Pick<Model<Api>, "provider"> & { baseUrl?: string };
	/** Built with the call's key, which it redacts from every text it is given. */
	builder: AssistantMessageBuilder;
	/** What the call connects to, for connection errors; `model.provider` when unset. */
	endpointName?: string;
	/** Where the call connects to, for the host an error names; `model.baseUrl` when unset. */
	endpointUrl?: string;
}

/** How many attempts were made, and since when. */
export interface AttemptHistory {
	attempts: number;
	startedAt: number;
}

/** Ends a call the caller's abort, `timeoutMs` or the idle watchdog stopped. */
export function failStoppedCall(call: CallFailureContext, cause: StopCause): void {
	if (call.builder.isSealed) return;
	call.builder.fail(stopReason(cause), stopMessage(cause));
}

/** Ends a call whose last attempt failed and will not be retried; `note` says why it was not retried. */
export function failAttempt(
	call: CallFailureContext,
	error: unknown,
	classification: ErrorClassification,
	history: AttemptHistory,
	note?: string,
): void {
	if (call.builder.isSealed) return;
	const text = describeAttemptFailure(call.endpointName ?? call.model.provider, error, classification, history, {
		baseUrl: call.endpointUrl ?? call.model.baseUrl,
		note,
	});
	call.builder.fail("error", text);
}

/** Ends a call whose attempt returned without the decoder finishing the message. */
export function failUnfinishedStream(call: CallFailureContext): void {
	if (call.builder.isSealed) return;
	call.builder.fail("error", "The provider's stream ended before the response was finished (no stop event)");
}

/**
 * Ends a call with anything thrown outside an attempt: a provider module that failed to load, a
 * provider or harness bug. `context` says what was being done, e.g. "Failed to load the provider".
 */
export function failUnexpectedly(call: CallFailureContext, error: unknown, context?: string): void {
	if (call.builder.isSealed) return;
	const text = formatThrownValue(error);
	call.builder.fail("error", context ? `${context}: ${text}` : text);
}

/**
 * The text for a failed attempt. A connection that could not be made names the provider, where it
 * tried to connect and the system error, and says how many attempts were made, since the retries
 * took time the caller waited through:
 * `Could not connect to ollama at 127.0.0.1:11434: connect ECONNREFUSED 127.0.0.1:11434 (3 attempts over 2.6 s)`.
 * An HTTP error status keeps the provider's own text first (overflow patterns read it from the
 * start) and says who answered, at which host, and after how many attempts:
 * `500 Internal server error (anthropic at api.anthropic.com, 3 attempts over 3.1 s)`.
 */
export function describeAttemptFailure(
	endpointName: string,
	error: unknown,
	classification: ErrorClassification,
	history: AttemptHistory,
	where: { baseUrl?: string; now?: number; note?: string } = {},
): string {
	const now = where.now ?? Date.now();
	const attempts =
		history.attempts < 2 ? "" : `${history.attempts} attempts over ${((now - history.startedAt) / 1000).toFixed(1)} s`;
	const note = where.note ? ` (${where.note})` : "";
	if (classification.status !== undefined) {
		const host = hostOf(where.baseUrl);
		const source = host ? `${endpointName} at ${host}` : endpointName;
		return `${classification.message}${note} (${attempts ? `${source}, ${attempts}` : source})`;
	}
	const network = findNetworkCause(error);
	if (!network?.beforeConnecting) return `${classification.message}${note}`;
	const target = network.target ? ` at ${network.target}` : "";
	const text = `Could not connect to ${endpointName}${target}: ${network.message}`;
	return `${attempts ? `${text} (${attempts})` : text}${note}`;
}

/** `api.anthropic.com` from `https://api.anthropic.com/v1`; undefined for a missing or unreadable URL. */
function hostOf(baseUrl: string | undefined): string | undefined {
	if (!baseUrl) return undefined;
	try {
		return new URL(baseUrl).host || undefined;
	} catch {
		return undefined;
	}
}
