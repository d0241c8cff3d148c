// An Agent run as a tool of another: each call starts a fresh child Agent on a prompt made from the
// call's arguments and answers with the child's final text. The child's events reach the parent's
// listeners as tool_execution_update, an abort of the parent's run aborts the child, the child's
// usage is the result's `usage` (so it adds into the parent's `sumUsage`), and a child that fails
// gives the parent an error result, usage kept. Storage stays behind AgentStore: a `childStore`
// factory (for a session, `sidechainStores` from @keel/agent-core/session) gives each child its
// own store.
//
// The shape follows what the common SDKs offer: OpenAI Agents JS `agent.asTool({ toolName,
// toolDescription, customOutputExtractor })` (https://openai.github.io/openai-agents-js/guides/tools/#agents-as-tools)
// with `{ input: string }` as the default parameters, and the AI SDK's sub-agents, a tool whose
// execute runs an agent and may map its output (https://ai-sdk.dev/docs/agents/subagents).
import {
	formatThrownValue,
	type ImageContent,
	type Static,
	type TextContent,
	type TSchema,
	Type,
	type Usage,
} from "@keel/ai";
import { Agent, type AgentOptions } from "./agent.js";
import type { AgentStore } from "./agent-store.js";
import type {
	AgentEvent,
	AgentMessage,
	AgentTool,
	AgentToolResult,
	AgentToolUpdateCallback,
	ShouldStopAfterTurnContext,
} from "./types.js";
import { addUsage, emptyUsage } from "./usage-total.js";

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
	) => string | (TextContent | ImageContent)[] | Promise<string | (TextContent | ImageContent)[]>;
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

/**
 * The depth of the run each signal belongs to: a child registers its run's signal, and the loop hands
 * that very signal to the child's tools, so an agent tool called inside a child knows how deep it is
 * without any context propagation (which browsers lack). Weak: a finished run's signal is let go.
 */
const runDepths = new WeakMap<AbortSignal, number>();

/** An AgentTool that runs a child Agent per call; see the file comment and docs/agents-as-tools.md. */
export function agentAsTool<TParameters extends TSchema = typeof AGENT_TOOL_PARAMETERS>(
	options: AgentAsToolOptions<TParameters>,
): AgentTool<TParameters, AgentToolDetails> {
	const checked = checkOptions(options);
	const parameters = (options.parameters ?? AGENT_TOOL_PARAMETERS) as TParameters;
	return {
		name: options.name,
		label: options.label ?? options.name,
		description: options.description,
		parameters,
		execute: (toolCallId, args, signal, onUpdate) =>
			runChild(checked, { toolCallId, toolName: options.name, args, depth: 0, signal }, onUpdate),
	};
}

interface CheckedOptions {
	options: AgentAsToolOptions<TSchema>;
	maxDepth: number;
}

function checkOptions<TParameters extends TSchema>(options: AgentAsToolOptions<TParameters>): CheckedOptions {
	const where = "agentAsTool()";
	if (typeof options !== "object" || options === null) {
		throw new TypeError(`${where} takes an options object, got ${options === null ? "null" : typeof options}`);
	}
	if (typeof options.name !== "string" || options.name.trim() === "") {
		throw new TypeError(`${where}: name must be a non-empty string, got ${JSON.stringify(options.name)}`);
	}
	if (typeof options.description !== "string" || options.description.trim() === "") {
		throw new TypeError(
			`${where} "${options.name}": description must be a non-empty string (the parent's model reads it)`,
		);
	}
	const agent = options.agent as unknown;
	if (typeof agent !== "function" && (typeof agent !== "object" || agent === null)) {
		throw new TypeError(
			`${where} "${options.name}": agent must be Agent options or a function returning a new Agent, got ${agent === null ? "null" : typeof agent}`,
		);
	}
	if (agent instanceof Agent) {
		throw new TypeError(
			`${where} "${options.name}": agent is an Agent instance; give a function that makes a new one per call (agent: () => new Agent(...)), since calls may run at once`,
		);
	}
	if (typeof agent === "object" && (agent as AgentOptions).store !== undefined) {
		throw new TypeError(
			`${where} "${options.name}": agent options must not carry a store (every call needs its own); give childStore instead`,
		);
	}
	if (options.parameters !== undefined && (typeof options.parameters !== "object" || options.parameters === null)) {
		throw new TypeError(`${where} "${options.name}": parameters must be a TypeBox schema`);
	}
	for (const field of ["prompt", "result", "childStore"] as const) {
		if (options[field] !== undefined && typeof options[field] !== "function") {
			throw new TypeError(`${where} "${options.name}": ${field} must be a function, got ${typeof options[field]}`);
		}
	}
	if (
		options.progress !== undefined &&
		typeof options.progress !== "boolean" &&
		typeof options.progress !== "function"
	) {
		throw new TypeError(`${where} "${options.name}": progress must be a boolean or a function of the event`);
	}
	for (const field of ["maxTurns", "maxDepth"] as const) {
		const value = options[field];
		if (value !== undefined && (!Number.isInteger(value) || value < 1)) {
			throw new RangeError(`${where} "${options.name}": ${field} must be a positive integer, got ${String(value)}`);
		}
	}
	return {
		options: options as unknown as AgentAsToolOptions<TSchema>,
		maxDepth: options.maxDepth ?? DEFAULT_AGENT_TOOL_MAX_DEPTH,
	};
}

/**
 * One call: checks the depth, makes the store, the Agent and the prompt, runs the child with its
 * events forwarded and the parent's abort passed on, and turns how it ended into the tool's result.
 * Throws (an error result without usage) only for what fails before the child ran.
 */
async function runChild(
	checked: CheckedOptions,
	call: ChildAgentCall,
	onUpdate: AgentToolUpdateCallback<AgentToolDetails> | undefined,
): Promise<AgentToolResult<AgentToolDetails>> {
	const { options, maxDepth } = checked;
	const name = options.name;
	const parentDepth = call.signal ? (runDepths.get(call.signal) ?? 0) : 0;
	call.depth = parentDepth + 1;
	if (call.depth > maxDepth) {
		throw new Error(
			`Agent tool "${name}" was not run: it would nest agents ${call.depth} deep, more than maxDepth (${maxDepth}). An agent that has itself among its tools recurses without end; give the child a tool list without it, or raise maxDepth.`,
		);
	}
	if (call.signal?.aborted) throw new Error(`Agent tool "${name}" was not run: the run was aborted`);

	const prompt = await makePrompt(options, call);
	const made = options.childStore ? await makeStore(options.childStore, call, name) : undefined;
	let child: Agent;
	try {
		child = await makeAgent(options, call, made?.store);
	} catch (error) {
		await closeStore(made);
		throw error;
	}

	const run = new ChildRun(child, call, options, onUpdate);
	try {
		await run.start(prompt);
	} finally {
		run.detach();
		await closeStore(made);
	}
	return run.result(made?.sessionId);
}

async function makePrompt(
	options: AgentAsToolOptions<TSchema>,
	call: ChildAgentCall,
): Promise<string | AgentMessage | AgentMessage[]> {
	if (options.prompt) {
		let prompt: unknown;
		try {
			prompt = await options.prompt(call.args, call);
		} catch (error) {
			throw new Error(`Agent tool "${options.name}": prompt() failed: ${formatThrownValue(error)}`);
		}
		if (typeof prompt !== "string" && (typeof prompt !== "object" || prompt === null)) {
			throw new Error(
				`Agent tool "${options.name}": prompt() must return a string or messages, got ${prompt === null ? "null" : typeof prompt}`,
			);
		}
		return prompt as string | AgentMessage | AgentMessage[];
	}
	const input = (call.args as { input?: unknown } | null)?.input;
	return typeof input === "string" ? input : JSON.stringify(call.args);
}

async function makeStore(factory: ChildStoreFactory, call: ChildAgentCall, name: string): Promise<ChildAgentStore> {
	let made: ChildAgentStore;
	try {
		made = await factory(call);
	} catch (error) {
		throw new Error(`Agent tool "${name}": childStore() failed: ${formatThrownValue(error)}`);
	}
	if (typeof made?.store?.open !== "function" || typeof made.store.append !== "function") {
		throw new Error(`Agent tool "${name}": childStore() must return { store: AgentStore, sessionId?, close? }`);
	}
	return made;
}

async function makeAgent(
	options: AgentAsToolOptions<TSchema>,
	call: ChildAgentCall,
	store: AgentStore | undefined,
): Promise<Agent> {
	const name = options.name;
	if (typeof options.agent !== "function") {
		return store ? new Agent({ ...options.agent, store }) : new Agent(options.agent);
	}
	let child: unknown;
	try {
		child = await options.agent({ ...call, store });
	} catch (error) {
		throw new Error(`Agent tool "${name}": agent() failed: ${formatThrownValue(error)}`);
	}
	if (!(child instanceof Agent)) {
		throw new Error(`Agent tool "${name}": agent() must return an Agent, got ${describe(child)}`);
	}
	if (store && child.store !== store) {
		throw new Error(
			`Agent tool "${name}": agent() must give the Agent the store of the call (new Agent({ store: context.store })), or the child's transcript is not kept`,
		);
	}
	if (child.state.isStreaming) {
		throw new Error(`Agent tool "${name}": agent() returned an Agent that is already running; make a new one per call`);
	}
	return child;
}

async function closeStore(made: ChildAgentStore | undefined): Promise<void> {
	try {
		await made?.close?.();
	} catch {
		// The child's result stands; a store that fails to close reports it through its own means.
	}
}

/** One child run: its events, its usage and turns, and how it ended. */
class ChildRun {
	private readonly messages: AgentMessage[] = [];
	private readonly usage = emptyUsage();
	private turns = 0;
	private turnLimitHit = false;
	/** Names the calls a child's run paused on: a child run as a tool cannot wait for approvals. */
	private pausedOn: string | undefined;
	private readonly unsubscribe: () => void;
	private readonly abortChild = () => this.child.abort();

	constructor(
		private readonly child: Agent,
		private readonly call: ChildAgentCall,
		private readonly options: AgentAsToolOptions<TSchema>,
		onUpdate: AgentToolUpdateCallback<AgentToolDetails> | undefined,
	) {
		const progress = options.progress ?? true;
		const forwards = typeof progress === "function" ? progress : () => progress;
		const depth = call.depth;
		this.unsubscribe = child.subscribe((event, signal) => {
			this.record(event, signal);
			if (!onUpdate) return;
			let wanted = false;
			try {
				wanted = forwards(event);
			} catch {
				// A throwing filter forwards nothing; the child's run goes on.
			}
			if (wanted)
				onUpdate({
					content: [{ type: "text", text: summariseAgentEvent(event) }],
					details: { kind: "progress", depth, event },
				});
		});
		const maxTurns = options.maxTurns;
		if (maxTurns !== undefined) {
			const own = child.shouldStopAfterTurn;
			child.shouldStopAfterTurn = (context: ShouldStopAfterTurnContext) => {
				// After the turn that used up the limit, a child that still called tools is stopped.
				if (this.turns >= maxTurns && context.toolResults.length > 0) {
					this.turnLimitHit = true;
					return true;
				}
				return own ? own(context) : false;
			};
		}
	}

	private record(event: AgentEvent, signal: AbortSignal): void {
		switch (event.type) {
			case "agent_start":
				runDepths.set(signal, this.call.depth);
				break;
			case "turn_end":
				this.turns++;
				break;
			case "agent_end":
				if (event.pausedRun)
					this.pausedOn = event.pausedRun.calls
						.filter((pending) => pending.status === "pending")
						.map((pending) => pending.toolName)
						.join(", ");
				break;
			case "message_end": {
				this.messages.push(event.message);
				const usage = (event.message as { usage?: Usage }).usage;
				const role = (event.message as { role?: unknown }).role;
				if (usage && (role === "assistant" || role === "toolResult")) addUsage(this.usage, usage);
				break;
			}
		}
	}

	async start(prompt: string | AgentMessage | AgentMessage[]): Promise<void> {
		const signal = this.call.signal;
		signal?.addEventListener("abort", this.abortChild, { once: true });
		try {
			await this.child.prompt(prompt);
		} catch (error) {
			throw new Error(`Agent tool "${this.options.name}": the child agent did not start: ${formatThrownValue(error)}`);
		}
	}

	detach(): void {
		this.unsubscribe();
		this.call.signal?.removeEventListener("abort", this.abortChild);
	}

	async result(sessionId: string | undefined): Promise<AgentToolResult<AgentToolDetails>> {
		const name = this.options.name;
		const details: AgentToolRunDetails = { kind: "result", usage: this.usage, turns: this.turns };
		if (sessionId !== undefined) details.sessionId = sessionId;
		const failure = (text: string): AgentToolResult<AgentToolDetails> => ({
			content: [{ type: "text", text }],
			details,
			usage: this.usage,
			isError: true,
		});
		if (this.call.signal?.aborted) return failure(`Agent "${name}" was aborted`);
		const last = lastAssistant(this.messages);
		if (this.pausedOn !== undefined) {
			return failure(
				`Agent "${name}" stopped to wait for approval of ${this.pausedOn}: an agent run as a tool cannot wait for approvals; decide them with the child's approvalPolicy`,
			);
		}
		if (this.turnLimitHit) {
			return failure(
				`Agent "${name}" did not finish within maxTurns (${this.options.maxTurns}): it was still calling tools`,
			);
		}
		if (!last) return failure(`Agent "${name}" ended without an answer${errorSuffix(this.child.state.errorMessage)}`);
		if (last.stopReason === "aborted") return failure(`Agent "${name}" was aborted`);
		if (last.stopReason === "error") {
			return failure(
				`Agent "${name}" failed: ${last.errorMessage ?? this.child.state.errorMessage ?? "unknown error"}`,
			);
		}
		const text = textOf(last);
		const run: AgentToolRun = { ...this.call, text, messages: this.messages, usage: this.usage, turns: this.turns };
		if (sessionId !== undefined) run.sessionId = sessionId;
		let content: (TextContent | ImageContent)[];
		try {
			content = this.options.result ? toContent(await this.options.result(run)) : [{ type: "text", text }];
		} catch (error) {
			return failure(`Agent tool "${name}": result() failed: ${formatThrownValue(error)}`);
		}
		return { content, details, usage: this.usage };
	}
}

interface AssistantLike {
	role: "assistant";
	content: { type: string; text?: string }[];
	stopReason?: string;
	errorMessage?: string;
}

function lastAssistant(messages: AgentMessage[]): AssistantLike | undefined {
	for (let index = messages.length - 1; index >= 0; index--) {
		const message = messages[index] as { role?: unknown };
		if (message.role === "assistant") return message as AssistantLike;
	}
	return undefined;
}

function textOf(message: AssistantLike): string {
	return message.content
		.filter((block) => block.type === "text" && typeof block.text === "string")
		.map((block) => block.text)
		.join("");
}

function toContent(value: unknown): (TextContent | ImageContent)[] {
	if (typeof value === "string") return [{ type: "text", text: value }];
	if (Array.isArray(value)) return value as (TextContent | ImageContent)[];
	throw new TypeError(`it must return a string or an array of text and image content, got ${describe(value)}`);
}

function errorSuffix(errorMessage: string | undefined): string {
	return errorMessage ? `: ${errorMessage}` : "";
}

/** One line a UI can show for a child's event: what the child is doing (its text so far while it answers). */
export function summariseAgentEvent(event: AgentEvent): string {
	switch (event.type) {
		case "message_start":
		case "message_update":
		case "message_end": {
			const message = event.message as { role?: unknown; content?: unknown };
			if (message.role === "assistant" && Array.isArray(message.content)) {
				const text = textOf(message as AssistantLike);
				return text === "" ? "thinking…" : text;
			}
			return `${String(message.role)} message`;
		}
		case "tool_execution_start":
			return `calling ${event.toolName}`;
		case "tool_execution_update":
			return `${event.toolName}: ${event.partialResult.content.map((block) => (block.type === "text" ? block.text : "[image]")).join("")}`;
		case "tool_execution_end":
			return `${event.toolName} ${event.isError ? "failed" : "done"}`;
		case "tool_approval_request":
			return `${event.toolName} waits for approval`;
		case "tool_approval_response":
			return `${event.toolName} ${event.approved ? "approved" : "denied"}`;
		default:
			return event.type.replace("_", " ");
	}
}

function describe(value: unknown): string {
	if (value === null) return "null";
	if (typeof value !== "object") return typeof value;
	return (value as object).constructor?.name ?? "an object";
}
