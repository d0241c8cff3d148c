// Resumable answers: the proxy gives each stream an id and each event an id (SSE `id:` lines), and
// publishes the events to a store shared by every proxy instance, so a page that reloads or loses
// its connection mid-answer reconnects (to any instance) and reads the rest without a second model
// call. This file is the store's contract; `@keel/proxy/redis` implements it on Redis Streams.
// Platform APIs only: the fetch handler loads it.

/** One stored event: its id (1, 2, 3… within its stream) and its SSE `data:` text. */
export interface StoredStreamEvent {
	id: number;
	data: string;
}

/** Writes one stream's events. Never throws and never waits: a store that fails only loses resumability. */
export interface ResumableStreamWriter {
	/** Appends an event; `final` marks the stream's last (done or error) event. */
	append(eventId: number, data: string, final: boolean): void;
}

/** Where a proxy keeps the events of the answers in flight, shared by all its instances. */
export interface ResumableStreamStore {
	/** Starts a stream; the store records that it exists before any event arrives. */
	open(streamId: string): ResumableStreamWriter;
	/**
	 * The events after `afterEventId` (0: from the start), the ones stored and then the ones still
	 * coming, until the final event. Rejects with ResumableStreamError: 404 for an unknown or expired
	 * stream, 503 when the store cannot be reached. The iteration stops when `signal` aborts, and
	 * throws when the stream stops growing before its final event (its writer died).
	 */
	read(streamId: string, afterEventId: number, signal: AbortSignal): Promise<AsyncIterable<StoredStreamEvent>>;
}

/** A stream that cannot be resumed: 404 unknown or expired, 410 its early events trimmed, 503 the store unreachable. */
export class ResumableStreamError extends Error {
	override name = "ResumableStreamError";
	constructor(
		readonly status: 404 | 410 | 503,
		message: string,
	) {
		super(message);
	}
}

/** The response header that names the stream, so the caller can resume it after a reload. */
export const STREAM_ID_HEADER = "X-Keel-Stream-Id";

/** Stream ids the proxy makes are UUIDs; anything outside this shape is refused before the store sees it. */
export function isValidStreamId(streamId: string): boolean {
	return /^[A-Za-z0-9_-]{1,128}$/.test(streamId);
}
