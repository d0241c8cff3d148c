// Which span a new span nests under. OpenTelemetry's active context is the answer when the
// application registered a context manager (NodeSDK does, with AsyncLocalStorage); Keel also keeps
// the span it is activating right now, so a model call started synchronously inside a turn's or a
// fallback attempt's `activate` nests under it even with no context manager (browsers, bare SDKs).
import { type Context, context, type Span, trace } from "@opentelemetry/api";

let activating: Context | undefined;

/** The context new spans take as their parent. */
export function parentContext(): Context {
	return activating ?? context.active();
}

/** The context holding `span` as the active span, under the current parent. */
export function contextWithSpan(span: Span, parent: Context = parentContext()): Context {
	return trace.setSpan(parent, span);
}

/** Runs `run` with `spanContext` as the parent of spans it starts (synchronously, and through the context manager). */
export function activateContext<T>(spanContext: Context, run: () => T): T {
	return context.with(spanContext, () => {
		const previous = activating;
		activating = spanContext;
		try {
			return run();
		} finally {
			activating = previous;
		}
	});
}
