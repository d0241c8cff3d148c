// A ResumableStreamStore on Redis Streams (https://redis.io/docs/latest/develop/data-types/streams/):
// one stream key per answer, an `open` entry when the answer starts, then one entry per event with
// the explicit id `1-<eventId>`, so a reader resumes with `XREAD … STREAMS key 1-<lastEventId>`
// without mapping ids. MAXLEN bounds each key and EXPIRE removes it after the TTL.
import type { Redis } from "ioredis";
import {
	ResumableStreamError,
	type ResumableStreamStore,
	type ResumableStreamWriter,
	type StoredStreamEvent,
} from "../resumable-streams.js";

export interface RedisStreamStoreOptions {
	/** A connected ioredis client. Reads use their own connection (`duplicate()`), as XREAD BLOCK holds one. */
	redis: Redis;
	/** Prefix of every key. Default "keel:stream:". */
	keyPrefix?: string;
	/** The most events kept per stream (XADD MAXLEN ~). Default 100000. */
	maxEvents?: number;
	/** Seconds a stream is kept after its latest write (EXPIRE). Default 600. */
	ttlSeconds?: number;
	/**
	 * A reader waiting for more events gives up after this many ms without one (the instance writing
	 * the stream died). Default 300000, the proxy's longest idle limit by default.
	 */
	idleTimeoutMs?: number;
	/** How long one XREAD blocks, in ms, before the reader checks its idle limit. Default 5000. */
	blockMs?: number;
	/** Failed writes and reads (the answer itself is not affected). */
	onError?: (error: unknown) => void;
}

/** Refresh the TTL every this many events, so a long answer does not expire while it streams. */
const EXPIRE_EVERY_EVENTS = 100;

export function createRedisStreamStore(options: RedisStreamStoreOptions): ResumableStreamStore {
	const { redis } = options;
	if (!redis || typeof redis.xadd !== "function") {
		throw new Error("createRedisStreamStore: options.redis must be an ioredis client");
	}
	const keyPrefix = options.keyPrefix ?? "keel:stream:";
	const maxEvents = positive(options.maxEvents, 100_000, "maxEvents");
	const ttlSeconds = positive(options.ttlSeconds, 600, "ttlSeconds");
	const idleTimeoutMs = positive(options.idleTimeoutMs, 300_000, "idleTimeoutMs");
	const blockMs = positive(options.blockMs, 5_000, "blockMs");
	const keyOf = (streamId: string) => keyPrefix + streamId;
	const unavailable = () =>
		new ResumableStreamError(503, "Resuming is unavailable: the proxy cannot reach its stream store (Redis)");

	return {
		open(streamId): ResumableStreamWriter {
			const key = keyOf(streamId);
			let failed = false;
			// Commands on one connection run in the order sent, so nothing here waits for Redis.
			const send = (command: () => Promise<unknown>) => {
				if (failed) return;
				if (redis.status !== "ready") {
					failed = true;
					options.onError?.(new Error(`The stream ${streamId} is not resumable: Redis is ${redis.status}`));
					return;
				}
				command().catch((error: unknown) => {
					failed = true;
					options.onError?.(error);
				});
			};
			send(() => redis.multi().xadd(key, "0-1", "open", "1").expire(key, ttlSeconds).exec());
			return {
				append(eventId, data, final) {
					const fields = final ? ["data", data, "final", "1"] : ["data", data];
					send(() => redis.xadd(key, "MAXLEN", "~", maxEvents, `1-${eventId}`, ...fields));
					if (final || eventId % EXPIRE_EVERY_EVENTS === 0) send(() => redis.expire(key, ttlSeconds));
				},
			};
		},

		async read(streamId, afterEventId, signal) {
			if (redis.status !== "ready") throw unavailable();
			const key = keyOf(streamId);
			let first: [string, string[]][];
			try {
				first = await redis.xrange(key, "-", "+", "COUNT", 1);
			} catch (error) {
				options.onError?.(error);
				throw unavailable();
			}
			if (first.length === 0) {
				throw new ResumableStreamError(404, `Unknown or expired stream id: ${streamId}`);
			}
			const firstId = first[0][0];
			if (firstId.startsWith("1-") && Number(firstId.slice(2)) > afterEventId + 1) {
				throw new ResumableStreamError(
					410,
					`The stream ${streamId} no longer holds the events after ${afterEventId} (maxEvents)`,
				);
			}
			return readEvents(key, afterEventId, signal);
		},
	};

	async function* readEvents(
		key: string,
		afterEventId: number,
		signal: AbortSignal,
	): AsyncGenerator<StoredStreamEvent> {
		const reader = redis.duplicate();
		// The reader's own connection errors end this read (below); the shared client reports its own.
		reader.on("error", () => {});
		const stop = () => reader.disconnect();
		signal.addEventListener("abort", stop, { once: true });
		let lastId = `1-${afterEventId}`;
		let lastEventAt = Date.now();
		try {
			while (!signal.aborted) {
				const result = await reader.xread("COUNT", 1000, "BLOCK", blockMs, "STREAMS", key, lastId);
				if (signal.aborted) return;
				if (!result) {
					if (Date.now() - lastEventAt > idleTimeoutMs) {
						throw new Error(
							`The answer stopped: no event for ${idleTimeoutMs} ms (its proxy instance may have stopped)`,
						);
					}
					if ((await reader.exists(key)) === 0) throw new Error("The stream expired while it was being read");
					continue;
				}
				lastEventAt = Date.now();
				for (const [id, fields] of result[0][1]) {
					lastId = id;
					const data = fieldValue(fields, "data");
					if (data === undefined) continue;
					yield { id: Number(id.slice(2)), data };
					if (fieldValue(fields, "final") !== undefined) return;
				}
			}
		} catch (error) {
			if (signal.aborted) return;
			throw error instanceof Error && !("command" in error) ? error : unavailable();
		} finally {
			signal.removeEventListener("abort", stop);
			reader.disconnect();
		}
	}
}

function fieldValue(fields: string[], name: string): string | undefined {
	for (let index = 0; index + 1 < fields.length; index += 2) {
		if (fields[index] === name) return fields[index + 1];
	}
	return undefined;
}

function positive(value: number | undefined, fallback: number, name: string): number {
	if (value === undefined) return fallback;
	if (typeof value !== "number" || !(value > 0) || !Number.isFinite(value)) {
		throw new Error(`createRedisStreamStore: options.${name} must be a positive number, got ${String(value)}`);
	}
	return value;
}
