// The seam between Keel's code and tracing. Keel's harness, agent loop and fallback stream ask
// `getTracingHooks()` once per call, run or attempt; until `enableTracing` (the `@keel/ai/tracing`
// entry, which loads @opentelemetry/api) installs hooks, it returns undefined and nothing else runs.
// This module imports nothing, so importing @keel/ai never loads OpenTelemetry.
//
// The hooks live on globalThis under a registry symbol rather than in a module variable: an
// application may load two copies of @keel/ai (a bundled one and @keel/agent-core's peer, or source
// and dist in tests), and tracing enabled through either must reach both.
import type { Api, AssistantMessage, Context, Model, StreamOptions } from "../types.js";

// The same key is spelled out in install-hooks.ts and in @keel/agent-core's tracing.ts: sharing this
// module with the tracing entry would split it into a chunk of its own, one more file for every import.
const HOOKS_KEY = Symbol.for("keel.tracing.hooks");

/** Attribute values a trace accepts (OpenTelemetry's primitive attribute values). */
export type TraceAttributes = Record<string, string | number | boolean | string[] | undefined>;

/** One model call: the span of a `stream()`/`streamSimple()` call through the provider harness. */
export interface ModelCallTrace {
	/** The first content event of the call arrived (time to first token). */
	firstToken(): void;
	/** Attempt `attempt` (0 for the first) starts: a child span ended by `end`. */
	startAttempt(attempt: number): AttemptTrace;
	/** The call ended with this message (done, error or aborted). */
	end(message: AssistantMessage): void;
}

/** One attempt of a model call (the first try or a retry). */
export interface AttemptTrace {
	/** `error` is the failure that ended the attempt; `retryDelayMs` the wait before the next one, if any. */
	end(outcome?: { error?: string; retryDelayMs?: number }): void;
}

/** A span others nest under: `activate` runs `run` with this span as the parent of model calls it starts. */
export interface ParentTrace {
	activate<T>(run: () => T): T;
}

/** A fallback chain: one span over its ordered attempts, each of which holds one model call. */
export interface FallbackTrace {
	/** Target `index` (0-based) of the chain starts; start its stream inside the attempt's `activate`. */
	startAttempt(model: Model<Api>, index: number): FallbackAttemptTrace;
	/** The chain ended: `message` is what the caller received. */
	end(message: AssistantMessage): void;
}

export interface FallbackAttemptTrace extends ParentTrace {
	/** `reason` says why the chain moved on ("error", "context_overflow", "refusal"); omit it for the answering target. */
	end(message: AssistantMessage, reason?: string): void;
}

/** One agent run (agent_start … agent_end). */
export interface AgentRunTrace {
	startTurn(): AgentTurnTrace;
	end(outcome: { error?: string; aborted?: boolean }): void;
}

/** One agent turn: the model calls started inside `activate` and the tool executions nest under it. */
export interface AgentTurnTrace extends ParentTrace {
	startTool(toolCallId: string, toolName: string, args: unknown): ToolTrace;
	end(message: AssistantMessage | undefined): void;
}

/** One tool execution (tool_execution_start … tool_execution_end). */
export interface ToolTrace {
	end(result: unknown, isError: boolean): void;
}

/** What tracing implements; installed by `enableTracing`. */
export interface TracingHooks {
	startModelCall(model: Model<Api>, options: StreamOptions, context: Context | undefined): ModelCallTrace;
	startFallback(models: Model<Api>[]): FallbackTrace;
	startAgentRun(model: Model<Api> | undefined): AgentRunTrace;
}

/** The installed hooks, or undefined while tracing is off (the common case: one property read). */
export function getTracingHooks(): TracingHooks | undefined {
	return (globalThis as { [HOOKS_KEY]?: TracingHooks })[HOOKS_KEY];
}
