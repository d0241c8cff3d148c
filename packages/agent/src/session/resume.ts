// Resume: an Agent rebuilt from a session sees exactly what the model saw before (the branch's
// context from its last compact boundary, progress never included), with the queued messages that
// were not yet delivered back in their queues.
//
// A turn cut short in the middle of its tool calls (an assistant message with calls and no results)
// resumes by one of two policies:
// - "error-results" (default): each call without a result gets the error result
//   INTERRUPTED_TOOL_TEXT, so the model learns the call did not complete and decides what to do.
// - "rerun": the calls without a result are run again, one after another, with the Agent's tools
//   and hooks; only for tools that are safe to run twice.
// Either way the results are written to the session, and `agent.continue()` lets the model answer.
// Calls that wait for approval (a run that paused, see docs/approvals.md) are neither: they keep
// waiting, and the Agent's `pendingApprovals` lists them. An approved call without a result (the
// process died while it ran) follows the policy too: an interrupted error result, or run again,
// when `agent.continue()` resumes the paused run.
//
// The system prompt, model, thinking level and tool names the session stored (bindSession stores
// them as each run starts) are restored; `tools` gives the implementations the names pick from.

import type { AssistantMessage } from "@keel/ai";
import { Agent, type AgentOptions } from "../agent.js";
import { defaultConvertToLlm, UNKNOWN_MODEL } from "../agent-defaults.js";
import {
	createToolResultMessage,
	executePreparedToolCall,
	prepareToolCall,
	type ToolCallRun,
	type ToolOutcome,
} from "../tool-execution.js";
import type { AgentTool } from "../types.js";
import type { Session } from "./session.js";
import { type BindSessionOptions, bindSession, type InterruptedToolCallPolicy } from "./session-binding.js";

export type { InterruptedToolCallPolicy };

export interface ResumeAgentOptions extends Omit<AgentOptions, "store"> {
	/** What happens to tool calls a crash left without a result. Default "error-results". */
	interruptedToolCalls?: InterruptedToolCallPolicy;
	/** Automatic compaction (on by default), or false to turn it off. */
	compaction?: BindSessionOptions["compaction"];
	/** The tool implementations the session's stored tool names pick from (see bindSession). */
	tools?: AgentTool[];
	/** Aborts re-running interrupted tool calls. */
	signal?: AbortSignal;
}

/** Rebuilds an Agent from a session; see the file comment for interrupted turns. */
export async function resumeAgent(session: Session, options: ResumeAgentOptions = {}): Promise<Agent> {
	const { interruptedToolCalls = "error-results", signal, compaction, tools, ...agentOptions } = options;
	if (interruptedToolCalls !== "error-results" && interruptedToolCalls !== "rerun") {
		throw new TypeError(
			`resumeAgent(): interruptedToolCalls must be "error-results" or "rerun", got ${JSON.stringify(interruptedToolCalls)}`,
		);
	}
	if (interruptedToolCalls === "rerun") await rerunInterruptedToolCalls(session, agentOptions, tools, signal);
	// The binding answers any call still without a result with the interrupted error result.
	const { pausedRun, ...rest } = agentOptions;
	const store = bindSession(session, { compaction, tools, interruptedToolCalls, pausedRun });
	return new Agent({ ...rest, store });
}

async function rerunInterruptedToolCalls(
	session: Session,
	options: AgentOptions,
	tools: AgentTool[] | undefined,
	signal: AbortSignal | undefined,
): Promise<void> {
	const waiting = session.unansweredToolCalls();
	// Calls that wait for approval are not interrupted: the Agent restores their paused run.
	if (waiting.length === 0 || session.pausedToolRun()) return;
	const messages = session.modelContext();
	const assistant = findLastAssistant(messages);
	if (!assistant) return;
	const state = options.initialState ?? {};
	const run: ToolCallRun = {
		context: { systemPrompt: state.systemPrompt ?? "", messages, tools: state.tools ?? tools ?? [] },
		config: {
			model: state.model ?? UNKNOWN_MODEL,
			convertToLlm: options.convertToLlm ?? defaultConvertToLlm,
			beforeToolCall: options.beforeToolCall,
			afterToolCall: options.afterToolCall,
		},
		signal,
	};
	for (const toolCall of waiting) {
		const prepared = await prepareToolCall(run, assistant, toolCall);
		const outcome: ToolOutcome =
			prepared.kind === "ready"
				? await executePreparedToolCall(run, assistant, toolCall, prepared, () => {})
				: prepared;
		await session.append(createToolResultMessage(toolCall, outcome));
	}
}

function findLastAssistant(messages: readonly unknown[]): AssistantMessage | undefined {
	for (let index = messages.length - 1; index >= 0; index--) {
		const message = messages[index] as { role?: unknown };
		if (message.role === "assistant") return message as AssistantMessage;
	}
	return undefined;
}
