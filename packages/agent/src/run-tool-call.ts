// One tool call run outside a turn, through the steps a model's call goes through: finding the
// tool, prepareArguments, schema validation, beforeToolCall, execution, afterToolCall. No events,
// no messages. A tool that calls other tools uses it so the same hooks (permission checks) apply.
import type { AssistantMessage } from "@keel/ai";
import { executePreparedToolCall, prepareToolCall, type ToolCallRun } from "./tool-execution.js";
import type { AgentContext, AgentLoopConfig, AgentTool, AgentToolCall, AgentToolResult } from "./types.js";

export interface RunToolCallOptions extends Pick<AgentLoopConfig, "beforeToolCall" | "afterToolCall"> {
	/** The tools the call is looked up in. */
	tools: readonly AgentTool[];
	/** Given to the hooks as the message that made the call. */
	assistantMessage: AssistantMessage;
	/** Given to the hooks as the agent's context. */
	context: AgentContext;
	signal?: AbortSignal;
	/** Receives the tool's partial results, each before the call resolves. */
	onUpdate?: (partialResult: AgentToolResult) => void | Promise<void>;
}

export interface AgentToolCallOutcome {
	toolCall: AgentToolCall;
	result: AgentToolResult;
	isError: boolean;
}

/**
 * Runs the call and resolves with its result. Never rejects for the tool's failures: an unknown
 * tool, invalid arguments, a refusal by beforeToolCall and a throw all come back with
 * `isError: true` and the text the model would have seen.
 */
export async function runToolCall(toolCall: AgentToolCall, options: RunToolCallOptions): Promise<AgentToolCallOutcome> {
	const run: ToolCallRun = {
		context: { ...options.context, tools: [...options.tools] },
		// Only the two tool hooks are read on this path.
		config: { beforeToolCall: options.beforeToolCall, afterToolCall: options.afterToolCall } as AgentLoopConfig,
		signal: options.signal,
	};
	const prepared = await prepareToolCall(run, options.assistantMessage, toolCall);
	if (prepared.kind === "done") return { toolCall, result: prepared.result, isError: prepared.isError };
	const onUpdate = options.onUpdate;
	const outcome = await executePreparedToolCall(run, options.assistantMessage, toolCall, prepared, (event) =>
		event.type === "tool_execution_update" && onUpdate ? onUpdate(event.partialResult) : undefined,
	);
	return { toolCall, result: outcome.result, isError: outcome.isError };
}
