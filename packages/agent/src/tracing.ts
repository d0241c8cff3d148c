// Traces an agent run from its events: a span for the run, each turn and each tool execution, when
// `enableTracing` from `@keel/ai/tracing` is on. The loop calls two functions: `traceAgentEvents`
// once per run (it returns the sink itself while tracing is off) and `inTurnTrace` around the stream
// function, so the model call's span nests under its turn. Nothing here loads OpenTelemetry.
import type { AgentRunTrace, AgentTurnTrace, Api, AssistantMessage, Model, ToolTrace, TracingHooks } from "@keel/ai";
import type { AgentEvent, AgentEventSink, AgentMessage } from "./types.js";

// The slot `enableTracing` installs its hooks in (see @keel/ai's tracing/hooks.ts): read through
// globalThis so that a run traces whichever copy of @keel/ai enabled it.
const HOOKS_KEY = Symbol.for("keel.tracing.hooks");

/** The open spans of one traced run. */
class RunTracer {
	private run: AgentRunTrace | undefined;
	turn: AgentTurnTrace | undefined;
	private readonly tools = new Map<string, ToolTrace>();

	constructor(
		private readonly hooks: TracingHooks,
		private readonly model: Model<Api> | undefined,
	) {}

	observe(event: AgentEvent): void {
		switch (event.type) {
			case "agent_start":
				this.run = this.hooks.startAgentRun(this.model);
				break;
			case "turn_start":
				this.turn = this.run?.startTurn();
				break;
			case "tool_execution_start":
				if (this.turn)
					this.tools.set(event.toolCallId, this.turn.startTool(event.toolCallId, event.toolName, event.args));
				break;
			case "tool_execution_end":
				this.tools.get(event.toolCallId)?.end(event.result, event.isError);
				this.tools.delete(event.toolCallId);
				break;
			case "turn_end":
				this.endTurn(event.message as AssistantMessage);
				break;
			case "agent_end":
				this.endRun(event.messages);
				break;
		}
	}

	private endTurn(message: AssistantMessage | undefined): void {
		for (const tool of this.tools.values()) tool.end(undefined, true);
		this.tools.clear();
		this.turn?.end(message);
		this.turn = undefined;
	}

	private endRun(messages: AgentMessage[]): void {
		if (this.turn) this.endTurn(undefined);
		const last = lastAssistantMessage(messages);
		this.run?.end({
			error: last?.stopReason === "error" ? (last.errorMessage ?? "error") : undefined,
			aborted: last?.stopReason === "aborted",
		});
		this.run = undefined;
	}
}

const tracers = new WeakMap<AgentEventSink, RunTracer>();

/** The run's sink, traced when tracing is on (the sink itself otherwise). */
export function traceAgentEvents(sink: AgentEventSink, model: Model<Api> | undefined): AgentEventSink {
	const hooks = (globalThis as { [HOOKS_KEY]?: TracingHooks })[HOOKS_KEY];
	if (!hooks) return sink;
	const tracer = new RunTracer(hooks, model);
	const traced: AgentEventSink = (event) => {
		// Spans are bookkeeping: a tracing failure must never fail the run.
		try {
			tracer.observe(event);
		} catch {}
		return sink(event);
	};
	tracers.set(traced, tracer);
	return traced;
}

/** Runs `start` (the stream function call) with the current turn's span as the parent of its model call. */
export function inTurnTrace<T>(sink: AgentEventSink, start: () => T): T {
	const turn = tracers.get(sink)?.turn;
	if (!turn) return start();
	// A tracer that throws must neither fail the call nor start it twice: `start` runs exactly once,
	// and only its own failure reaches the caller.
	let outcome: { value: T } | { error: unknown } | undefined;
	try {
		turn.activate(() => {
			try {
				outcome = { value: start() };
			} catch (error) {
				outcome = { error };
			}
		});
	} catch {}
	if (outcome === undefined) outcome = { value: start() };
	if ("error" in outcome) throw outcome.error;
	return outcome.value;
}

function lastAssistantMessage(messages: AgentMessage[]): AssistantMessage | undefined {
	for (let index = messages.length - 1; index >= 0; index--) {
		const message = messages[index] as { role?: unknown } | null;
		if (message?.role === "assistant") return message as AssistantMessage;
	}
	return undefined;
}
