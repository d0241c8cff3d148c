// The contract every provider implements. Beside types.ts rather than in it: it returns the event
// stream class (utils/event-stream.ts), which is itself built on the message and event types there.
import type { Api, Context, Model, StreamOptions } from "./types.js";
import type { AssistantMessageEventStream } from "./utils/event-stream.js";

/**
 * The contract every provider implements.
 *
 * Once called, a StreamFunction must not throw and must not hang: a missing key, an HTTP error,
 * a malformed stream, a timeout and an abort all arrive as exactly one `error` event (stopReason
 * "error" or "aborted", `errorMessage` set, partial content kept), and `result()` always settles.
 * The stream begins with `start`. Implementers must not throw, synchronously or later: return the
 * stream at once and report every failure through it (`createProviderStream` does all of this for
 * a function that performs one attempt). `stream()` turns a synchronous throw into an error event
 * as a last resort, but nothing catches an exception thrown later.
 */
export type StreamFunction<TApi extends Api = Api, TOptions extends StreamOptions = StreamOptions> = (
	model: Model<TApi>,
	context: Context,
	options?: TOptions,
) => AssistantMessageEventStream;
