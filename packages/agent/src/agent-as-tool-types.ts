// The types of agentAsTool (agent-as-tool.ts): its options, what each call knows, the child's
// store, and the details of its partial and final results. Types and two constants only.
import { type Static, type ToolResultContent, type TSchema, Type, type Usage } from "@keel/ai";
import type { Agent, AgentOptions } from "./agent.js";
import type { AgentStore } from "./agent-store.js";
import type { AgentEvent, AgentMessage } from "./types.js";

/** The parameters of an agent tool unless others are given: the task, as one string. */
export const AGENT_TOOL_PARAMETERS = Type.Object({
	input: Type.String({
		description: "The task for the agent, in full: it sees nothing of this conversation but this text.",
	}),
});

/** How deep agents may call agents unless `maxDepth` says otherwise (a top-level agent's child is 1). */
export const DEFAULT_AGENT_TOOL_MAX_DEPTH = 4;

/** What a call of an agent tool knows when it makes the child's prompt, store and Agent. */
export interface ChildAgentCall<TArgs = unknown> {
	/** The parent's tool call id. */
	toolCallId: string;
	/** The tool's name. */
	toolName: string;
	/** The validated arguments of the call. */
	args: TArgs;
	/** How deep the child runs: 1 for the child of an agent that is not itself a child. */
	depth: number;
	/** The parent run's signal (the child is aborted with it). */
	signal: AbortSignal | undefined;
}

/** What a call gives `createAgent`: the call, and the store the child must keep its transcript in. */
export interface ChildAgentContext<TArgs = unknown> extends ChildAgentCall<TArgs> {
	/** The store `childStore` made for this call: pass it as `new Agent({ store })`. Undefined without `childStore`. */
	store: AgentStore | undefined;
}

/** A store for one child run, and what to do once the run is over. */
export interface ChildAgentStore {
	store: AgentStore;
	/** Named in the result's details, to find the child's transcript (a sidechain session's id). */
	sessionId?: string;
	/** Called once the child is idle (close the session, release a lock); a failure is ignored. */
	close?(): Promise<void> | void;
}

/** Makes the store of each child run. */
export type ChildStoreFactory = (call: ChildAgentCall) => ChildAgentStore | Promise<ChildAgentStore>;

/** What a finished child run gives the `result` mapping. */
export interface AgentToolRun<TArgs = unknown> extends ChildAgentCall<TArgs> {
	/** The text of the child's last assistant message ("" when it had none). */
	text: string;
	/** The messages the child's run added (its prompt first). */
	messages: AgentMessage[];
	/** The child's tokens and cost, its own tools' included. */
	usage: Usage;
	/** The turns the child took. */
	turns: number;
	/** The child store's `sessionId`, when it named one. */
	sessionId?: string;
}

/** The details of an agent tool's final result. */
export interface AgentToolRunDetails {
	kind: "result";
	usage: Usage;
	turns: number;
	/** Set when the child's store named one (a sidechain session). */
	sessionId?: string;
}

/** The details of an agent tool's partial results: one event of the child's run. */
export interface AgentToolProgressDetails {
	kind: "progress";
	/** How deep the child runs (1 for the child of a top-level agent). */
	depth: number;
	event: AgentEvent;
}

export type AgentToolDetails = AgentToolRunDetails | AgentToolProgressDetails;

export interface AgentAsToolOptions<TParameters extends TSchema = typeof AGENT_TOOL_PARAMETERS> {
	/** The tool's name, as the parent's model calls it. */
	name: string;
	/** What the agent is for: the parent's model reads it to decide when to call it. */
	description: string;
	/** For UIs; default the name. */
	label?: string;
	/** Default `{ input: string }` (AGENT_TOOL_PARAMETERS). */
	parameters?: TParameters;
	/**
	 * The child: options for a new Agent per call (never with a `store`: use `childStore`), or a
	 * function that makes a new Agent per call and must give it `context.store`.
	 */
	agent: AgentOptions | ((context: ChildAgentContext<Static<TParameters>>) => Agent | Promise<Agent>);
	/** The child's prompt from the call's arguments. Default: `args.input` when a string, else the arguments as JSON. */
	prompt?: (
		args: Static<TParameters>,
		call: ChildAgentCall<Static<TParameters>>,
	) => string | AgentMessage | AgentMessage[] | Promise<string | AgentMessage | AgentMessage[]>;
	/** The result the parent's model reads, from the child's run. Default: the child's last text. */
	result?: (
		run: AgentToolRun<Static<TParameters>>,
	) => string | ToolResultContent[] | Promise<string | ToolResultContent[]>;
	/** Gives each child run its own store (for a session: `sidechainStores(session)`). */
	childStore?: ChildStoreFactory;
	/**
	 * The most turns a child may take; a child still calling tools after them ends with an error
	 * result. Default: no limit.
	 */
	maxTurns?: number;
	/** How deep agent tools may nest (default DEFAULT_AGENT_TOOL_MAX_DEPTH); a deeper call gets an error result. */
	maxDepth?: number;
	/** Which child events reach the parent as tool_execution_update: all (default), none, or those this returns true for. */
	progress?: boolean | ((event: AgentEvent) => boolean);
}
