// The `@keel/proxy/redis` entry: resumable answers stored in Redis Streams. Node only, and only for
// proxies that use it: `ioredis` is an optional peer dependency.
export {
	createRedisStreamStore,
	type RedisStreamStoreOptions,
} from "./redis/redis-stream-store.js";
export {
	ResumableStreamError,
	type ResumableStreamStore,
	type ResumableStreamWriter,
	type StoredStreamEvent,
} from "./resumable-streams.js";
