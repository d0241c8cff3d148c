// Spans of an agent run (the GenAI conventions' `invoke_agent`), its turns, and its tool
// executions (`execute_tool`). Model calls made inside a turn's `activate` nest under the turn.
import { type Context, type Span, SpanKind, SpanStatusCode } from "@opentelemetry/api";
import type { Api, Model } from "../types.js";
import { serialiseValue } from "./content.js";
import type { AgentRunTrace, AgentTurnTrace, ToolTrace } from "./hooks.js";
import { activateContext, contextWithSpan, parentContext } from "./span-parent.js";
import type { TracingEnvironment } from "./tracing-environment.js";

export function startAgentRunSpan(environment: TracingEnvironment, model: Model<Api> | undefined): AgentRunTrace {
	const span = environment.tracer.startSpan(
		"invoke_agent",
		{
			kind: SpanKind.INTERNAL,
			attributes: {
				"gen_ai.operation.name": "invoke_agent",
				"gen_ai.provider.name": model?.provider,
				"gen_ai.request.model": model?.id,
			},
		},
		parentContext(),
	);
	const runContext = contextWithSpan(span);
	let turns = 0;
	return {
		startTurn() {
			turns++;
			return startTurnSpan(environment, runContext, turns);
		},
		end(outcome) {
			span.setAttribute("keel.agent.turns", turns);
			if (outcome.error !== undefined || outcome.aborted) {
				span.setAttribute("error.type", outcome.aborted ? "aborted" : "error");
				span.setStatus({ code: SpanStatusCode.ERROR, message: outcome.error });
			}
			span.end();
		},
	};
}

function startTurnSpan(environment: TracingEnvironment, runContext: Context, turn: number): AgentTurnTrace {
	const span = environment.tracer.startSpan(
		`turn ${turn}`,
		{ kind: SpanKind.INTERNAL, attributes: { "keel.agent.turn": turn } },
		runContext,
	);
	const turnContext = contextWithSpan(span, runContext);
	return {
		activate: (run) => activateContext(turnContext, run),
		startTool: (toolCallId, toolName, args) => startToolSpan(environment, turnContext, toolCallId, toolName, args),
		end(message) {
			if (message?.stopReason === "error" || message?.stopReason === "aborted") {
				span.setAttribute("error.type", message.stopReason);
				span.setStatus({ code: SpanStatusCode.ERROR, message: message.errorMessage });
			}
			span.end();
		},
	};
}

function startToolSpan(
	environment: TracingEnvironment,
	turnContext: Context,
	toolCallId: string,
	toolName: string,
	args: unknown,
): ToolTrace {
	const span: Span = environment.tracer.startSpan(
		`execute_tool ${toolName}`,
		{
			kind: SpanKind.INTERNAL,
			attributes: {
				"gen_ai.operation.name": "execute_tool",
				"gen_ai.tool.name": toolName,
				"gen_ai.tool.call.id": toolCallId,
				"gen_ai.tool.type": "function",
			},
		},
		turnContext,
	);
	if (environment.recordContent) span.setAttribute("gen_ai.tool.call.arguments", serialiseValue(args));
	return {
		end(result, isError) {
			if (environment.recordContent) span.setAttribute("gen_ai.tool.call.result", serialiseValue(result));
			if (isError) {
				span.setAttribute("error.type", "tool_error");
				span.setStatus({ code: SpanStatusCode.ERROR });
			}
			span.end();
		},
	};
}
