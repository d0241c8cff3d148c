// `@keel/ai/tracing`: OpenTelemetry spans and metrics for model calls, retries, fallbacks and
// agent runs. This entry is the only part of Keel that loads @opentelemetry/api (an optional peer
// dependency); until `enableTracing` runs, Keel's code pays one check per call and nothing per delta.
import { type Meter, metrics, type Tracer, trace } from "@opentelemetry/api";
import { startAgentRunSpan } from "./agent-spans.js";
import { createCallMetrics } from "./call-metrics.js";
import { startFallbackSpan } from "./fallback-spans.js";
import type { TracingHooks } from "./hooks.js";
import { setTracingHooks } from "./install-hooks.js";
import { startModelCallSpan } from "./model-call-span.js";
import type { TracingEnvironment } from "./tracing-environment.js";

export type {
	AgentRunTrace,
	AgentTurnTrace,
	AttemptTrace,
	FallbackAttemptTrace,
	FallbackTrace,
	ModelCallTrace,
	ToolTrace,
	TracingHooks,
} from "./hooks.js";

/** The instrumentation scope spans and metrics are reported under. */
export const TRACING_SCOPE = "@keel/ai";

export interface TracingOptions {
	/** Where spans go. Default: the global tracer provider's tracer for "@keel/ai". */
	tracer?: Tracer;
	/** Where metrics go. Default: the global meter provider's meter for "@keel/ai". */
	meter?: Meter;
	/**
	 * Record prompts, system prompts, responses, tool arguments and tool results on spans. Default
	 * false: they may hold personal or confidential data, so they leave the process only when asked.
	 */
	recordContent?: boolean;
}

/**
 * Turns tracing on for every @keel/ai call and @keel/agent-core run in this process (and every copy
 * of the packages loaded in it). Calling it again replaces the previous settings. Returns a function
 * that turns tracing off, like `disableTracing`.
 */
export function enableTracing(options: TracingOptions = {}): () => void {
	if (options === null || typeof options !== "object") {
		throw new TypeError(`enableTracing options must be an object, got ${options === null ? "null" : typeof options}`);
	}
	const environment: TracingEnvironment = {
		tracer: options.tracer ?? trace.getTracer(TRACING_SCOPE),
		metrics: createCallMetrics(options.meter ?? metrics.getMeter(TRACING_SCOPE)),
		recordContent: options.recordContent === true,
	};
	const hooks: TracingHooks = {
		startModelCall: (model, callOptions, context) => startModelCallSpan(environment, model, callOptions, context),
		startFallback: (models) => startFallbackSpan(environment, models),
		startAgentRun: (model) => startAgentRunSpan(environment, model),
	};
	setTracingHooks(hooks);
	return disableTracing;
}

/** Turns tracing off: calls and runs started from now on record nothing. */
export function disableTracing(): void {
	setTracingHooks(undefined);
}
