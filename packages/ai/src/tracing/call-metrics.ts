// The metrics of model calls: the GenAI semantic conventions' client metrics
// (https://opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-metrics/) and Keel's cost counter.
import type { Attributes, Counter, Histogram, Meter } from "@opentelemetry/api";
import type { AssistantMessage } from "../types.js";

// Bucket boundaries the conventions recommend for each histogram.
const DURATION_BUCKETS = [0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92];
const TOKEN_BUCKETS = [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864];
const FIRST_CHUNK_BUCKETS = [0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

export interface CallMetrics {
	duration: Histogram;
	timeToFirstChunk: Histogram;
	tokenUsage: Histogram;
	cost: Counter;
}

export function createCallMetrics(meter: Meter): CallMetrics {
	return {
		duration: meter.createHistogram("gen_ai.client.operation.duration", {
			description: "GenAI operation duration.",
			unit: "s",
			advice: { explicitBucketBoundaries: DURATION_BUCKETS },
		}),
		timeToFirstChunk: meter.createHistogram("gen_ai.client.operation.time_to_first_chunk", {
			description: "Time from sending the request to receiving the first chunk of content.",
			unit: "s",
			advice: { explicitBucketBoundaries: FIRST_CHUNK_BUCKETS },
		}),
		tokenUsage: meter.createHistogram("gen_ai.client.token.usage", {
			description: "Number of input and output tokens used.",
			unit: "{token}",
			advice: { explicitBucketBoundaries: TOKEN_BUCKETS },
		}),
		cost: meter.createCounter("keel.gen_ai.client.cost", {
			description: "Cost of model calls in US dollars, from the model catalogue's prices.",
			unit: "USD",
		}),
	};
}

/** Records one finished call. `attributes` are the call's metric attributes (provider, models, error.type). */
export function recordCall(
	metrics: CallMetrics,
	attributes: Attributes,
	message: AssistantMessage,
	durationSeconds: number,
	firstChunkSeconds: number | undefined,
): void {
	metrics.duration.record(durationSeconds, attributes);
	if (firstChunkSeconds !== undefined) metrics.timeToFirstChunk.record(firstChunkSeconds, attributes);
	const usage = message.usage;
	const input = usage.input + usage.cacheRead + usage.cacheWrite;
	// A call that failed before the server reported usage has none to record.
	if (input > 0 || usage.output > 0) {
		metrics.tokenUsage.record(input, { ...attributes, "gen_ai.token.type": "input" });
		metrics.tokenUsage.record(usage.output, { ...attributes, "gen_ai.token.type": "output" });
	}
	if (usage.cost.total > 0) metrics.cost.add(usage.cost.total, attributes);
}
