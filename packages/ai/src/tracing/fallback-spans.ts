// Spans of a fallback chain: one over the chain, one per target tried, each holding that target's
// model call span (started inside the attempt's `activate`).
import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import type { Api, Model } from "../types.js";
import type { FallbackAttemptTrace, FallbackTrace } from "./hooks.js";
import { activateContext, contextWithSpan, parentContext } from "./span-parent.js";
import type { TracingEnvironment } from "./tracing-environment.js";

export function startFallbackSpan(environment: TracingEnvironment, models: Model<Api>[]): FallbackTrace {
	const span = environment.tracer.startSpan(
		"fallback",
		{
			kind: SpanKind.INTERNAL,
			attributes: { "keel.fallback.models": models.map((model) => `${model.provider}/${model.id}`) },
		},
		parentContext(),
	);
	const chainContext = contextWithSpan(span);
	return {
		startAttempt(model, index): FallbackAttemptTrace {
			const attemptSpan = environment.tracer.startSpan(
				`fallback attempt ${index + 1}`,
				{
					kind: SpanKind.INTERNAL,
					attributes: {
						"keel.fallback.index": index,
						"gen_ai.provider.name": model.provider,
						"gen_ai.request.model": model.id,
					},
				},
				chainContext,
			);
			const attemptContext = contextWithSpan(attemptSpan, chainContext);
			return {
				activate: (run) => activateContext(attemptContext, run),
				end(message, reason) {
					if (reason !== undefined) attemptSpan.setAttribute("keel.fallback.reason", reason);
					if (message.stopReason === "error" || message.stopReason === "aborted") {
						attemptSpan.setStatus({ code: SpanStatusCode.ERROR, message: message.errorMessage });
					}
					attemptSpan.end();
				},
			};
		},
		end(message) {
			span.setAttribute("gen_ai.response.model", message.responseModel ?? message.model);
			if (message.stopReason === "error" || message.stopReason === "aborted") {
				span.setAttribute("error.type", message.stopReason);
				span.setStatus({ code: SpanStatusCode.ERROR, message: message.errorMessage });
			}
			span.end();
		},
	};
}
