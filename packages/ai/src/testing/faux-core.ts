// The faux provider as bare stream functions plus its controls, registered nowhere, for a program
// that wires them itself (into createProvider, into registerApiProvider, or calling stream
// directly). fauxProvider and registerFauxProvider are built on the same parts (createFauxStreams),
// so all three behave alike.

import type { Context, Model, SimpleStreamOptions, StreamOptions } from "../types.js";
import type { AssistantMessageEventStream } from "../utils/event-stream.js";
import { createFauxStreams, type FauxProviderOptions, type FauxProviderRegistration } from "./faux-provider.js";

export interface FauxCore<TApi extends string = "faux"> extends Omit<FauxProviderRegistration<TApi>, "unregister"> {
	readonly models: Model<TApi>[];
	/** Streams the next queued response; never throws (an empty queue is an `error` event). */
	stream(model: Model<TApi>, context: Context, options?: StreamOptions): AssistantMessageEventStream;
	streamSimple(model: Model<TApi>, context: Context, options?: SimpleStreamOptions): AssistantMessageEventStream;
}

/**
 * The faux provider's stream functions and controls in one object. It has no `fetchDeferred` /
 * `cancelDeferred`, since Keel's providers have no deferred responses. Its api defaults to `"faux"`
 * like the other faux helpers: give each core its own `api` to register several side by side.
 */
export function createFauxCore<TApi extends string = "faux">(options: FauxProviderOptions<TApi> = {}): FauxCore<TApi> {
	const { streams, controls } = createFauxStreams(options);
	return { ...controls, stream: streams.stream, streamSimple: streams.streamSimple };
}
