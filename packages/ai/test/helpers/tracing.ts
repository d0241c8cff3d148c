// In-memory OpenTelemetry for tracing tests: spans and metrics land in arrays the test reads.
import {
	AggregationTemporality,
	InMemoryMetricExporter,
	MeterProvider,
	PeriodicExportingMetricReader,
} from "@opentelemetry/sdk-metrics";
import {
	BasicTracerProvider,
	InMemorySpanExporter,
	type ReadableSpan,
	SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterEach } from "vitest";
import { disableTracing, enableTracing } from "../../src/tracing/index.js";

export interface RecordedTelemetry {
	spans(): ReadableSpan[];
	span(name: string): ReadableSpan;
	children(parent: ReadableSpan): ReadableSpan[];
	/** Every data point of `name` after a flush, as [value, attributes]. */
	metric(name: string): Promise<{ value: unknown; attributes: Record<string, unknown> }[]>;
}

/** Enables tracing into in-memory exporters for the current test; `afterEach` turns it off. */
export function recordTelemetry(options: { recordContent?: boolean } = {}): RecordedTelemetry {
	const spanExporter = new InMemorySpanExporter();
	const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spanExporter)] });
	const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
	const reader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 3_600_000 });
	const meterProvider = new MeterProvider({ readers: [reader] });
	enableTracing({
		tracer: tracerProvider.getTracer("test"),
		meter: meterProvider.getMeter("test"),
		recordContent: options.recordContent,
	});
	const spans = () => spanExporter.getFinishedSpans();
	return {
		spans,
		span(name) {
			const found = spans().find((span) => span.name === name);
			if (!found)
				throw new Error(
					`No span named "${name}"; spans: ${spans()
						.map((span) => span.name)
						.join(", ")}`,
				);
			return found;
		},
		children: (parent) => spans().filter((span) => span.parentSpanContext?.spanId === parent.spanContext().spanId),
		async metric(name) {
			await reader.forceFlush();
			const points: { value: unknown; attributes: Record<string, unknown> }[] = [];
			for (const resourceMetrics of metricExporter.getMetrics()) {
				for (const scope of resourceMetrics.scopeMetrics) {
					for (const metric of scope.metrics) {
						if (metric.descriptor.name !== name) continue;
						for (const point of metric.dataPoints) points.push({ value: point.value, attributes: point.attributes });
					}
				}
			}
			metricExporter.reset();
			return points;
		},
	};
}

afterEach(() => {
	disableTracing();
});
