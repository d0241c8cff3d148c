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
import { formatThrownValue, type ToolResultContent, type TSchema, type Usage } from "@keel/ai";
import { Agent } from "./agent.js";
import { type CheckedOptions, checkAgentToolOptions } from "./agent-as-tool-options.js";
import {
	AGENT_TOOL_PARAMETERS,
	type AgentAsToolOptions,
	type AgentToolDetails,
	type AgentToolRun,
	type AgentToolRunDetails,
	type ChildAgentCall,
	type ChildAgentStore,
	type ChildStoreFactory,
} from "./agent-as-tool-types.js";
import { lastAssistant, summariseAgentEvent, textOf } from "./agent-event-summary.js";
import type { AgentStore } from "./agent-store.js";
import { runSignalOf } from "./steering-interrupt.js";
import type {
	AgentEvent,
	AgentMessage,
	AgentTool,
	AgentToolResult,
	AgentToolUpdateCallback,
	ShouldStopAfterTurnContext,
} from "./types.js";
import { addUsage, emptyUsage } from "./usage-total.js";

/**
 * The depth of the run each signal belongs to: a child registers its run's signal, and the loop hands
 * the child's tools that signal or a step signal standing in for it (runSignalOf), so an agent tool
 * called inside a child knows how deep it is without any context propagation (which browsers lack).
 * Weak: a finished run's signal is let go.
 */
const runDepths = new WeakMap<AbortSignal, number>();

/** An AgentTool that runs a child Agent per call; see the file comment and docs/agents-as-tools.md. */
export function agentAsTool<TParameters extends TSchema = typeof AGENT_TOOL_PARAMETERS>(
	options: AgentAsToolOptions<TParameters>,
): AgentTool<TParameters, AgentToolDetails> {
	const checked = checkAgentToolOptions(options);
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
	const parentDepth = call.signal ? (runDepths.get(runSignalOf(call.signal)) ?? 0) : 0;
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
		let content: ToolResultContent[];
		try {
			content = this.options.result ? toContent(await this.options.result(run)) : [{ type: "text", text }];
		} catch (error) {
			return failure(`Agent tool "${name}": result() failed: ${formatThrownValue(error)}`);
		}
		return { content, details, usage: this.usage };
	}
}

function toContent(value: unknown): ToolResultContent[] {
	if (typeof value === "string") return [{ type: "text", text: value }];
	if (Array.isArray(value)) return value as ToolResultContent[];
	throw new TypeError(`it must return a string or an array of text, image and file content, got ${describe(value)}`);
}

function errorSuffix(errorMessage: string | undefined): string {
	return errorMessage ? `: ${errorMessage}` : "";
}

function describe(value: unknown): string {
	if (value === null) return "null";
	if (typeof value !== "object") return typeof value;
	return (value as object).constructor?.name ?? "an object";
}
