// The one read loop of Keel. Every transport feeds it: the HTTP + SSE skeleton (http-transport.ts),
// Bedrock's binary event stream and its SDK-read fallback, the Codex WebSocket, and any provider
// written with @keel/ai/provider-kit (an NDJSON API such as Ollama's needs only a framer), and
// @keel/proxy's client. Reading, framing, onRawEvent, decoding, the end of the body, abort
// and a connection cut mid-body are handled here once, and so is what counts as "alive" for the
// idle watchdog.

import type { ProviderAttempt } from "../call/provider-attempt.js";
import type { Api, RawStreamEvent } from "../types.js";
import { rawEventReporter } from "./raw-event-callback.js";
import type { StreamDecoder } from "./stream-decoder.js";

/**
 * Turns the chunks a source delivers (bytes, WebSocket messages, SDK events) into complete frames.
 * A frame is whatever one `parse` call reads: an SSE event, an NDJSON line, an event-stream frame.
 */
export interface Framer<TChunk, TFrame> {
	/** The frames this chunk completes, in order (often none: a line may span many chunks). */
	push(chunk: TChunk): TFrame[];
	/** The source ended: the frames its end completes (an event closed without its blank line). */
	end?(): TFrame[];
	/**
	 * A fault in the framing (bytes that are not a valid frame), checked after the frames `push`
	 * returned have been decoded, so those are kept.
	 */
	readonly error?: Error | undefined;
}

/** Where the chunks come from: a fetch body, any async iterable, or a hand-written iterator. */
export type ChunkSource<TChunk> = ReadableStream<TChunk> | AsyncIterable<TChunk> | AsyncIterator<TChunk>;

/** What `parse` returns for a frame that ends the stream as a whole (OpenAI's `data: [DONE]`). */
export const END_OF_STREAM: unique symbol = Symbol("keel.endOfStream");

export interface PumpRequest<TChunk, TFrame, TEvent> {
	/** Names the provider in the error for a connection cut mid-body: "Anthropic", "Bedrock". */
	label: string;
	framer: Framer<TChunk, TFrame>;
	decoder: StreamDecoder<TEvent>;
	/**
	 * One frame as a decoder event; undefined skips it (a keep-alive, an event type the API may
	 * add). Throws for a frame that is an error (the harness reports it with the content so far).
	 */
	parse(frame: TFrame): TEvent | undefined | typeof END_OF_STREAM;
	/** The frame as `onRawEvent` sees it (undefined: not reported); without this, onRawEvent is not called. */
	rawEvent?(frame: TFrame): RawStreamEvent | undefined;
	/** What a failed read throws; default: "The connection to <label> closed before …". */
	readError?(error: unknown): unknown;
	/**
	 * Called after a chunk that moved the message nowhere, instead of `attempt.keepAlive()` (which
	 * lets such chunks keep the call alive for a bounded time only, see call/call-lifetime.ts).
	 */
	onKeepAlive?(): void;
}

/** How the pump stopped: the decoder finished, the source ended, or the attempt was aborted. */
export type PumpOutcome = "finished" | "ended" | "aborted";

/**
 * Reads `source` to the end of the message: every chunk through the framer, every frame to
 * `onRawEvent` first, then `parse`, then the decoder, until the decoder is finished, `parse` says
 * END_OF_STREAM, the source ends (then `decoder.end()` says which terminal event never came), or
 * the attempt's signal aborts (then it returns quietly: the harness reports the cause).
 *
 * Alive means progress: a chunk after which the message has moved on (the builder emitted an
 * event: content, a block's start or end, the terminal event) restarts the idle watchdog
 * (`attempt.touch()`). Any other chunk (keep-alive comments, pings, event types the decoder
 * ignores, part of a line or frame) is keep-alive traffic (`attempt.keepAlive()`), which counts
 * for a bounded time after the last progress only, so a server that only trickles is stopped,
 * before the first content as between events.
 *
 * One async step per chunk, not per frame. Stopping early cancels the source (the download stops).
 */
export async function pump<TChunk, TFrame, TEvent>(
	attempt: ProviderAttempt<Api>,
	source: ChunkSource<TChunk>,
	request: PumpRequest<TChunk, TFrame, TEvent>,
): Promise<PumpOutcome> {
	const { framer, decoder } = request;
	const { signal } = attempt;
	const reportRawEvent = request.rawEvent ? rawEventReporter(attempt) : undefined;
	const chunks = chunkIterator(source);
	const { builder } = attempt;

	// Feeds frames to the decoder; an outcome once nothing more should be read.
	const feed = async (frames: TFrame[]): Promise<PumpOutcome | undefined> => {
		for (const frame of frames) {
			const raw = reportRawEvent ? request.rawEvent?.(frame) : undefined;
			const pending = raw ? reportRawEvent?.(raw) : undefined;
			if (pending) {
				await pending;
				if (signal.aborted) return "aborted";
			}
			const event = request.parse(frame);
			if (event === undefined) continue;
			if (event === END_OF_STREAM) {
				decoder.end();
				return "finished";
			}
			decoder.decode(event);
			// Nothing that follows the terminal event matters: stop reading (and downloading).
			if (decoder.isFinished) return "finished";
		}
		if (framer.error) throw framer.error;
		return undefined;
	};

	try {
		for (;;) {
			let next: IteratorResult<TChunk>;
			try {
				next = await chunks.next();
			} catch (error) {
				if (signal.aborted) return "aborted";
				throw request.readError ? request.readError(error) : connectionClosedError(error, request.label);
			}
			if (signal.aborted) return "aborted";
			if (next.done) break;
			const progressBefore = builder.eventCount;
			const outcome = await feed(framer.push(next.value));
			if (builder.eventCount !== progressBefore) attempt.touch();
			else if (request.onKeepAlive) request.onKeepAlive();
			else attempt.keepAlive();
			if (outcome) return outcome;
		}
		const outcome = await feed(framer.end?.() ?? []);
		if (outcome) return outcome;
	} finally {
		chunks.close();
	}
	if (signal.aborted) return "aborted";
	decoder.end();
	return "ended";
}

export interface ClosableIterator<T> {
	next(): Promise<IteratorResult<T>>;
	/** Ends reading; cancels what is left of a stream. Never waits for a cancel that may never settle. */
	close(): void;
}

export function chunkIterator<T>(source: ChunkSource<T>): ClosableIterator<T> {
	if (typeof (source as ReadableStream<T>).getReader === "function") {
		const reader = (source as ReadableStream<T>).getReader();
		let done = false;
		return {
			next: async () => {
				const result = await reader.read();
				if (result.done) done = true;
				return result as IteratorResult<T>;
			},
			close: () => {
				// Not awaited: a stream whose cancel never settles must not hang the call. The server
				// sees the disconnect.
				if (!done) reader.cancel().catch(() => {});
				try {
					reader.releaseLock();
				} catch {
					// Some runtimes refuse while the cancel settles; the stream is finished either way.
				}
			},
		};
	}
	const iterator =
		typeof (source as AsyncIterable<T>)[Symbol.asyncIterator] === "function"
			? (source as AsyncIterable<T>)[Symbol.asyncIterator]()
			: (source as AsyncIterator<T>);
	return {
		next: () => iterator.next(),
		close: () => {
			Promise.resolve()
				.then(() => iterator.return?.())
				.catch(() => {});
		},
	};
}

/**
 * The one wording for a body that failed while it was being read (undici reports a connection
 * closed mid-body as a bare "terminated"). The original text stays in the message, so retry
 * classification still recognises a connection failure.
 */
export function connectionClosedError(error: unknown, label: string): Error {
	const text = error instanceof Error ? error.message : String(error);
	const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : "";
	const detail = cause && !text.includes(cause) ? `${text} (${cause})` : text;
	return new Error(`The connection to ${label} closed before the response was finished: ${detail}`, { cause: error });
}
