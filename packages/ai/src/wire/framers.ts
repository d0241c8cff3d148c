// Framers for the pump (pump.ts): bytes to server-sent events, bytes to NDJSON lines, and chunks
// that are frames already (WebSocket messages, events an SDK parsed). Each needs TextDecoder only,
// so they run in browsers and Workers too.
import { chunkIterator, type Framer } from "./pump.js";
import { type ServerSentEvent, ServerSentEventParser } from "./sse.js";

/** Server-sent events from a byte stream; a multi-byte character split across chunks arrives whole. */
export function sseFramer(): Framer<Uint8Array, ServerSentEvent> {
	const decoder = new TextDecoder();
	let batch: ServerSentEvent[] = [];
	const parser = new ServerSentEventParser((event) => batch.push(event));
	const take = (): ServerSentEvent[] => {
		if (batch.length === 0) return EMPTY;
		const complete = batch;
		batch = [];
		return complete;
	};
	return {
		push(chunk) {
			parser.push(decoder.decode(chunk, { stream: true }));
			return take();
		},
		end() {
			parser.push(decoder.decode());
			parser.end();
			return take();
		},
	};
}

/**
 * Newline-delimited JSON (one value per line, as Ollama's native API streams): the complete,
 * non-blank lines of a byte stream, without their "\n" or "\r\n". A line split across chunks is
 * kept as pieces and joined once, so a long line costs O(its length). The lines are not parsed
 * here: `parse` decides what a line means and how a bad one fails. A last line without its "\n"
 * is still delivered when the stream ends.
 */
export function ndjsonFramer(): Framer<Uint8Array, string> {
	const decoder = new TextDecoder();
	let pending: string[] = [];
	const lines: string[] = [];
	const complete = (piece: string) => {
		let line = piece;
		if (pending.length > 0) {
			pending.push(piece);
			line = pending.join("");
			pending = [];
		}
		if (line.endsWith("\r")) line = line.slice(0, -1);
		if (line.trim() !== "") lines.push(line);
	};
	const take = (text: string, final: boolean): string[] => {
		let start = 0;
		for (;;) {
			const end = text.indexOf("\n", start);
			if (end === -1) break;
			complete(text.slice(start, end));
			start = end + 1;
		}
		if (start < text.length) pending.push(text.slice(start));
		if (final && pending.length > 0) complete("");
		return lines.splice(0, lines.length);
	};
	return {
		push: (chunk) => take(decoder.decode(chunk, { stream: true }), false),
		end: () => take(decoder.decode(), true),
	};
}

/** Chunks that are whole frames already (one WebSocket message, one SDK event). */
export function singleFrames<TFrame>(): Framer<TFrame, TFrame> {
	return { push: (chunk) => [chunk] };
}

/** Chunks that are lists of whole frames (the batch of messages a socket received since the last read). */
export function framesInBatches<TFrame>(): Framer<TFrame[], TFrame> {
	return { push: (chunk) => chunk };
}

const EMPTY: never[] = [];

/**
 * Yields the events of an SSE body, one array per network chunk that completed any (one async step
 * per chunk rather than per event). For callers that want the events themselves; a provider hands
 * the body to `pump` instead. `onBytes` runs for every chunk received. Stopping early (break, a
 * thrown error) cancels the download.
 */
export async function* readServerSentEvents(
	body: ReadableStream<Uint8Array>,
	onBytes: () => void = () => {},
): AsyncGenerator<ServerSentEvent[]> {
	const framer = sseFramer();
	const chunks = chunkIterator(body);
	try {
		for (;;) {
			const next = await chunks.next();
			if (next.done) break;
			onBytes();
			const events = framer.push(next.value);
			if (events.length > 0) yield events;
		}
		const last = framer.end?.() ?? [];
		if (last.length > 0) yield last;
	} finally {
		chunks.close();
	}
}
