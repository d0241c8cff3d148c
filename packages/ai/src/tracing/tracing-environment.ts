import type { Tracer } from "@opentelemetry/api";
import type { CallMetrics } from "./call-metrics.js";

/** What every span factory of `enableTracing` shares. */
export interface TracingEnvironment {
	tracer: Tracer;
	metrics: CallMetrics;
	/** Record prompts, responses, tool arguments and results on spans. Off unless the user opts in. */
	recordContent: boolean;
}

/** Seconds since `start` (a `performance.now()` reading). */
export function secondsSince(start: number): number {
	return (performance.now() - start) / 1000;
}
