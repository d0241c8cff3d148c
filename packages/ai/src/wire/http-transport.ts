// The one transport skeleton of Keel's HTTP + server-sent-events providers (Anthropic Messages,
// OpenAI Chat Completions, OpenAI Responses, Azure OpenAI Responses, Gemini, Vertex AI). A provider's transport.ts
// only says where the request goes, with which headers and body, how one event is parsed and which
// decoder reads it; sending, HTTP errors, reading the body and its failures happen here, once.
//
// Keel sends these requests itself with the platform `fetch` rather than through the vendors' SDKs,
// which are used for their TypeScript types only (`import type`). Measured reasons: importing
// @anthropic-ai/sdk costs about 200 ms and openai 70–100 ms over an empty Node process (Keel's
// budget for import plus first call is 150 ms); the Anthropic SDK pulls node:child_process and
// node:fs into Worker bundles; and Keel already read the response body itself (the SDKs' stream
// iterators cost 1.6–5.9× the floor, see wire/sse.ts), so the SDKs only added a wrapped fetch,
// SDK-shaped errors and casts. A caller who injects a ready SDK client (`AnthropicOptions.client`)
// still gets it used: its `create(body, {signal, headers}).asResponse()` supplies the Response.
// APIs whose protocol needs an SDK load it lazily inside their own transport (Bedrock); Vertex AI
// gets its OAuth tokens with Keel's own code and sends with `fetch` here.

import { headersToRecord } from "../call/error-classification.js";
import type { ProviderAttempt } from "../call/provider-stream.js";
import type { Api, RawStreamEvent } from "../types.js";
import { sseFramer } from "./framers.js";
import {
	describeCut,
	describeErrorBody,
	ProviderHttpError,
	ProviderStreamError,
	readErrorBody,
} from "./provider-errors.js";
import { connectionClosedError, END_OF_STREAM, type Framer, pump } from "./pump.js";
import type { ServerSentEvent } from "./sse.js";
import type { StreamDecoder } from "./stream-decoder.js";

export { connectionClosedError } from "./pump.js";

/**
 * `{baseUrl}{path}`, with any trailing slash of the base URL removed (catalogue rows and user
 * settings write it both ways), and `query` parameters added to any the base URL already has.
 */
export function endpointUrl(baseUrl: string, path: string, query: Record<string, string> = {}): string {
	const url = `${baseUrl.replace(/\/+$/, "")}${path}`;
	const entries = Object.entries(query);
	if (entries.length === 0) return url;
	const parsed = new URL(url);
	for (const [name, value] of entries) parsed.searchParams.set(name, value);
	return parsed.toString();
}

/** Sends the request through a caller's SDK client instead of `fetch`. */
export type SendThroughClient<TBody> = (
	payload: TBody,
	init: { signal: AbortSignal; headers: Record<string, string> },
) => Promise<Response>;

/** What a provider's transport supplies for one streaming attempt, whatever the body's framing. */
export interface StreamingRequest<TBody, TEvent> {
	/** Names the provider in error messages: "Anthropic", "openai", "Azure OpenAI". */
	label: string;
	url: string;
	/** Every header but the body's content type, which is always JSON. */
	headers: Record<string, string>;
	/** The encoded body; `onPayload` may replace it before it is sent. */
	body: TBody;
	/** The decoder for this attempt, given the payload as sent. */
	createDecoder(payload: TBody): StreamDecoder<TEvent>;
	/**
	 * A 2xx answer with a JSON body where an event stream was expected (a proxy that ignores
	 * `stream: true`). Default: an error with the body's own message.
	 */
	decodeJsonBody?(text: string, decoder: StreamDecoder<TEvent>): void;
	/** When the caller injected an SDK client: sends with it rather than with `fetch`. */
	sendThroughClient?: SendThroughClient<TBody>;
}

/** A streaming request whose body is server-sent events. */
export interface SseRequest<TBody, TEvent> extends StreamingRequest<TBody, TEvent> {
	/**
	 * One server-sent event as a decoder event. Returns undefined to skip it (keep-alive pings);
	 * throws a ProviderStreamError for an error event.
	 */
	parseEvent(event: ServerSentEvent): TEvent | undefined;
}

/** A streaming request whose body another framer reads (NDJSON lines, say). */
export interface FramedRequest<TBody, TFrame, TEvent> extends StreamingRequest<TBody, TEvent> {
	/** A new framer for this attempt's body (framers keep state). */
	createFramer(): Framer<Uint8Array, TFrame>;
	/** One frame as a decoder event; undefined skips it. Throws for a frame that is an error. */
	parseFrame(frame: TFrame): TEvent | undefined | typeof END_OF_STREAM;
	/** The frame as `onRawEvent` sees it. */
	rawEvent(frame: TFrame): RawStreamEvent | undefined;
}

/** One attempt of an HTTP + server-sent-events call; see `runStreamingAttempt`. */
export function runSseAttempt<TApi extends Api, TBody, TEvent>(
	attempt: ProviderAttempt<TApi>,
	request: SseRequest<TBody, TEvent>,
): Promise<void> {
	return runStreamingAttempt(attempt, {
		...request,
		createFramer: sseFramer,
		// OpenAI's documented end of a Chat Completions stream; some Responses-compatible servers send it too.
		parseFrame: (event: ServerSentEvent) => (event.data === "[DONE]" ? END_OF_STREAM : request.parseEvent(event)),
		rawEvent: (event: ServerSentEvent) => event,
	});
}

/**
 * One attempt of a streaming HTTP call: `onPayload`, POST, `onResponse`, then the body through the
 * pump (pump.ts) with the request's framer, every frame to the decoder until it is finished or the
 * body ends.
 *
 * - A non-2xx answer becomes one ProviderHttpError (status, headers, the provider's own message),
 *   which the harness classifies for retry.
 * - A body cut mid-stream becomes one error naming the provider and the original failure.
 * - An abort (caller, timeoutMs, idle watchdog) ends quietly: the harness reports its cause.
 */
export async function runStreamingAttempt<TApi extends Api, TBody, TFrame, TEvent>(
	attempt: ProviderAttempt<TApi>,
	request: FramedRequest<TBody, TFrame, TEvent>,
): Promise<void> {
	const payload = await attempt.preparePayload(request.body);
	const headers = { "content-type": "application/json", ...request.headers };
	let response: Response;
	try {
		response = request.sendThroughClient
			? await sendThroughClient(request.sendThroughClient, payload, attempt.signal, headers)
			: await fetch(request.url, { method: "POST", headers, body: JSON.stringify(payload), signal: attempt.signal });
	} catch (error) {
		if (error instanceof ProviderHttpError) {
			await attempt.reportResponse({ status: error.status, headers: headersToRecord(error.headers) });
		}
		throw error;
	}
	attempt.touch();
	await attempt.reportResponse({ status: response.status, headers: headersToRecord(response.headers) });
	if (!response.ok) throw await ProviderHttpError.fromResponse(response);

	const decoder = request.createDecoder(payload);
	if (response.headers.get("content-type")?.includes("application/json")) {
		if (request.decodeJsonBody) return request.decodeJsonBody(await readWholeBody(response, request.label), decoder);
		// Only quoted in an error: read no more of it than of an error body.
		const body = await readErrorBody(response);
		const error = jsonInsteadOfStreamError(body.text, request.label);
		if (body.cut) error.message = `${error.message} (${describeCut(body.totalBytes)})`;
		throw error;
	}
	if (!response.body) throw new Error(`The ${request.label} response to a streaming request has no body`);

	await pump(attempt, response.body, {
		label: request.label,
		framer: request.createFramer(),
		decoder,
		parse: request.parseFrame,
		rawEvent: request.rawEvent,
	});
}

async function sendThroughClient<TBody>(
	send: SendThroughClient<TBody>,
	payload: TBody,
	signal: AbortSignal,
	headers: Record<string, string>,
): Promise<Response> {
	try {
		return await send(payload, { signal, headers });
	} catch (error) {
		// The SDK has already read an error body into its own error type: one shape for classification.
		throw ProviderHttpError.fromClientError(error);
	}
}

async function readWholeBody(response: Response, label: string): Promise<string> {
	try {
		return await response.text();
	} catch (error) {
		throw connectionClosedError(error, label);
	}
}

/** The error for a JSON body where an event stream was expected: the body's own message when it has one. */
export function jsonInsteadOfStreamError(text: string, label: string): Error {
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch {
		parsed = undefined;
	}
	const error = (parsed as { error?: unknown } | undefined)?.error;
	if (error !== undefined && error !== null) {
		const detail = describeErrorBody(text);
		// OpenAI's `code` (rate_limit_exceeded) says more about a retry than its `type` (requests).
		const code = typeof detail.code === "string" ? detail.code : detail.type;
		return new ProviderStreamError(`${label} error${code ? ` ${code}` : ""}: ${detail.message}`, code);
	}
	return new Error(`${label} answered with JSON instead of an event stream: ${text.slice(0, 200)}`);
}
