// The span of one model call and the child spans of its attempts, with the GenAI semantic
// conventions' attributes (https://opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-spans/).
import { type Attributes, type Span, SpanKind, SpanStatusCode } from "@opentelemetry/api";
import type { Api, AssistantMessage, Context, Model, StreamOptions } from "../types.js";
import { recordCall } from "./call-metrics.js";
import { finishReason, inputMessages, outputMessages, systemInstructions } from "./content.js";
import type { AttemptTrace, ModelCallTrace } from "./hooks.js";
import { contextWithSpan, parentContext } from "./span-parent.js";
import { secondsSince, type TracingEnvironment } from "./tracing-environment.js";

export function startModelCallSpan(
	environment: TracingEnvironment,
	model: Model<Api>,
	options: StreamOptions,
	context: Context | undefined,
): ModelCallTrace {
	const started = performance.now();
	const { tracer } = environment;
	const requestAttributes: Attributes = {
		"gen_ai.operation.name": "chat",
		"gen_ai.provider.name": model.provider,
		"gen_ai.request.model": model.id,
		"keel.api": model.api,
	};
	const span = tracer.startSpan(
		`chat ${model.id}`,
		{
			kind: SpanKind.CLIENT,
			attributes: {
				...requestAttributes,
				"gen_ai.request.max_tokens": options.maxTokens,
				"gen_ai.request.temperature": options.temperature,
			},
		},
		parentContext(),
	);
	if (environment.recordContent && context) {
		span.setAttribute("gen_ai.input.messages", inputMessages(context));
		const system = systemInstructions(context);
		if (system) span.setAttribute("gen_ai.system_instructions", system);
	}
	const callContext = contextWithSpan(span);
	let firstChunkSeconds: number | undefined;
	let ended = false;
	let openAttempt: AttemptTrace | undefined;
	return {
		firstToken() {
			firstChunkSeconds = secondsSince(started);
			span.addEvent("gen_ai.first_token", { "keel.time_to_first_token_s": firstChunkSeconds });
		},
		startAttempt(attempt): AttemptTrace {
			const attemptSpan = tracer.startSpan(
				`chat ${model.id} attempt ${attempt + 1}`,
				{ kind: SpanKind.INTERNAL, attributes: { "keel.attempt": attempt + 1 } },
				callContext,
			);
			let attemptEnded = false;
			const attemptTrace: AttemptTrace = {
				end(outcome) {
					if (attemptEnded) return;
					attemptEnded = true;
					if (outcome?.error !== undefined) {
						attemptSpan.setStatus({ code: SpanStatusCode.ERROR, message: outcome.error });
					}
					attemptSpan.end();
				},
			};
			openAttempt = attemptTrace;
			return attemptTrace;
		},
		end(message) {
			// The terminal event ends the call; the harness calls again when it closes the stream.
			if (ended) return;
			ended = true;
			// The terminal event goes out from inside the last attempt: it ends with the call, not after it.
			openAttempt?.end({ error: callErrorType(message) ? (message.errorMessage ?? "error") : undefined });
			const metricAttributes = endCallSpan(span, requestAttributes, message, environment.recordContent);
			recordCall(environment.metrics, metricAttributes, message, secondsSince(started), firstChunkSeconds);
		},
	};
}

/** Sets the response attributes and status, ends the span, and returns the attributes for the call's metrics. */
function endCallSpan(
	span: Span,
	requestAttributes: Attributes,
	message: AssistantMessage,
	recordContent: boolean,
): Attributes {
	const usage = message.usage;
	const responseModel = message.responseModel ?? message.model;
	span.setAttributes({
		"gen_ai.response.model": responseModel,
		"gen_ai.response.id": message.responseId,
		"gen_ai.response.finish_reasons": [finishReason(message)],
		// The conventions count every input token, cached ones included; Keel's `input` excludes them.
		"gen_ai.usage.input_tokens": usage.input + usage.cacheRead + usage.cacheWrite,
		"gen_ai.usage.output_tokens": usage.output,
		"gen_ai.usage.cache_read.input_tokens": usage.cacheRead,
		"gen_ai.usage.cache_creation.input_tokens": usage.cacheWrite,
		"keel.usage.cost_usd": usage.cost.total,
	});
	if (recordContent) span.setAttribute("gen_ai.output.messages", outputMessages(message));
	const metricAttributes: Attributes = { ...requestAttributes, "gen_ai.response.model": responseModel };
	const errorType = callErrorType(message);
	if (errorType) {
		span.setAttribute("error.type", errorType);
		span.setStatus({ code: SpanStatusCode.ERROR, message: message.errorMessage });
		metricAttributes["error.type"] = errorType;
	}
	span.end();
	return metricAttributes;
}

/** `error.type` of a call that did not finish: "aborted" when the caller stopped it, "error" otherwise. */
function callErrorType(message: AssistantMessage): string | undefined {
	if (message.stopReason === "aborted") return "aborted";
	if (message.stopReason === "error") return "error";
	return undefined;
}
