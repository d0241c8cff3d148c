// Streams whose provider code loads on first use: a stream is returned at once and the module (or
// any other async setup: a key, a token) is awaited behind it. A setup failure ends the stream with
// one error event, so `stream()` still never throws and never hangs.
import type { ProviderStreams } from "../registry/types.js";
import type {
	Api,
	AssistantMessage,
	AssistantMessageEvent,
	Context,
	Model,
	SimpleStreamOptions,
	StreamOptions,
} from "../types.js";
import { createErrorMessage, formatThrownValue } from "../utils/error-message.js";
import { type AssistantMessageEventStream, createAssistantMessageEventStream } from "../utils/event-stream.js";

/** Read-only observation of what a lazy stream forwards. */
export interface LazyStreamObserver {
	onEvent?(event: AssistantMessageEvent): void;
	onResult?(result: AssistantMessage | undefined): void;
}

/** A stream returned now, fed by the events of the stream `setup` resolves to. */
export function lazyStream(
	model: Pick<Model<Api>, "api" | "provider" | "id">,
	setup: () => Promise<AsyncIterable<AssistantMessageEvent>>,
	observer?: LazyStreamObserver,
	signal?: AbortSignal,
): AssistantMessageEventStream {
	const outer = createAssistantMessageEventStream();
	let observed = false;
	const observe = (result: AssistantMessage | undefined) => {
		if (observed) return;
		observed = true;
		observer?.onResult?.(result);
	};
	const forward = async () => {
		const inner = await setup();
		let result: AssistantMessage | undefined;
		for await (const event of inner) {
			outer.push(event);
			observer?.onEvent?.(event);
			if (event.type === "done") result = event.message;
			else if (event.type === "error") result = event.error;
		}
		const withResult = inner as { result?: () => Promise<AssistantMessage> };
		if (typeof withResult.result === "function") result = await withResult.result();
		outer.end(result);
		observe(result);
	};
	forward().catch((error: unknown) => {
		const reason = signal?.aborted ? "aborted" : "error";
		const message = createErrorMessage(model, reason, formatThrownValue(error));
		const event: AssistantMessageEvent = { type: "error", reason, error: message };
		outer.push(event);
		observer?.onEvent?.(event);
		outer.end(message);
		observe(message);
	});
	return outer;
}

/** A provider's two stream functions, loading `load()`'s module on the first call (the import cache keeps it). */
export function lazyApi(load: () => Promise<ProviderStreams>): ProviderStreams {
	return {
		stream: (model: Model<Api>, context: Context, options?: StreamOptions) =>
			lazyStream(model, async () => (await load()).stream(model, context, options), undefined, options?.signal),
		streamSimple: (model: Model<Api>, context: Context, options?: SimpleStreamOptions) =>
			lazyStream(model, async () => (await load()).streamSimple(model, context, options), undefined, options?.signal),
	};
}
