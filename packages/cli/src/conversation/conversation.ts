// One conversation of `keel prompt` or `keel chat`, run by @keel/agent-core's Agent: the Agent keeps
// the transcript, appends every message to the conversation's session (when it is logged), runs
// the built-in tools with the library's approvals, and stops an answer on abort. This class only
// opens the session, turns the Agent's events into output, and asks before each tool call.
import { Agent, type AgentEvent, type AgentTool, type ToolApprovalRequest } from "@keel/agent-core";
import { Session, type TranscriptStore } from "@keel/agent-core/session";
import type { Api, AssistantMessage, Message, Model, ThinkingLevel, UserContent } from "@keel/ai";
import { AnswerPrinter } from "../answer-output.js";
import type { CallCredentials } from "../api-key.js";
import type { ModelFlags } from "../model-selection.js";
import { type ChatSettings, createSessionId } from "../sessions/chat-transcript.js";
import { colorEnabled, createStyles, type Styles, type Terminal } from "../terminal.js";
import { BUILTIN_TOOLS } from "../tools/builtin-tools.js";
import { sessionAgentOptions } from "./agent-session.js";
import { HoldableOutput } from "./holdable-output.js";
import { type CallOptions, createTimedStreamFunction, type TimedAssistantMessage } from "./timed-stream.js";

export interface ConversationSetup {
	model: Model<Api>;
	modelFlags: ModelFlags;
	reasoning: ThinkingLevel | undefined;
	systemPrompt: string | undefined;
	callOptions: CallOptions;
	credentials: CallCredentials;
	/** The tools the model may call: built-in ones (-T) and MCP servers' (--mcp, --mcp-url). */
	tools: AgentTool[];
	/** Ask before each tool call (unless --yes). */
	confirmTools: boolean;
	json: boolean;
}

/** Asks the user whether a tool call may run. */
export type ConfirmToolCall = (request: ToolApprovalRequest) => Promise<boolean>;

/** A session's title: the start of its first message, on one line. */
export function titleFrom(text: string): string {
	const line = text.replace(/\s+/g, " ").trim();
	return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}

export class Conversation {
	private agent: Agent | undefined;
	private session: Session | undefined;
	private readonly printer: AnswerPrinter;
	private readonly styles: Styles;
	/** The answer's output, which `keel chat` holds while the user types a line during an answer. */
	readonly output: HoldableOutput;
	/** The lines the user typed during an answer (steering), shown when they enter the transcript. */
	private readonly steering = new WeakSet<object>();

	/** `store` undefined: nothing is logged (keel logs off, --no-log); the Agent keeps the messages in memory. */
	constructor(
		readonly terminal: Terminal,
		private setup: ConversationSetup,
		private readonly store: TranscriptStore | undefined,
		private readonly confirm: ConfirmToolCall,
	) {
		this.output = new HoldableOutput(terminal);
		this.printer = new AnswerPrinter(
			{ ...terminal, stdout: this.output.stdout, stderr: this.output.stderr },
			{ json: setup.json },
		);
		this.styles = createStyles(colorEnabled(terminal.stdout, terminal.env));
	}

	/** Continues a stored conversation: its messages become the Agent's transcript. */
	async resume(sessionId: string): Promise<void> {
		if (!this.store) throw new Error("cannot resume a conversation while logging is off");
		this.session = await Session.open(this.store, sessionId);
		this.agent = this.createAgent(this.session);
	}

	get model(): Model<Api> {
		return this.setup.model;
	}

	get reasoning(): ThinkingLevel | undefined {
		return this.setup.reasoning;
	}

	get modelFlags(): ModelFlags {
		return this.setup.modelFlags;
	}

	/** The stored session's id, once the conversation has one. */
	get sessionId(): string | undefined {
		return this.session?.id;
	}

	/** The conversation so far, as the model sees it. */
	get messages(): Message[] {
		return (this.agent?.state.messages ?? []).filter(
			(message): message is Message =>
				message.role === "user" || message.role === "assistant" || message.role === "toolResult",
		);
	}

	/** What --resume and -c bring back beside the messages (the state record's `custom.chat`). */
	settings(): ChatSettings {
		const { model } = this.setup;
		const custom = model.provider === "custom";
		const builtinNames = this.setup.tools.filter((tool) => BUILTIN_TOOLS.includes(tool)).map((tool) => tool.name);
		return {
			model: custom ? model.id : `${model.provider}/${model.id}`,
			// A custom server is remembered so that --resume finds it again; a catalogue model needs no URL.
			baseUrl: custom ? model.baseUrl : undefined,
			api: custom ? model.api : undefined,
			reasoning: this.setup.reasoning,
			systemPrompt: this.setup.systemPrompt,
			options: Object.keys(this.setup.callOptions).length > 0 ? this.setup.callOptions : undefined,
			// Only built-in tools are remembered: an MCP server is given again with --mcp when it is wanted.
			tools: builtinNames.length > 0 ? builtinNames : undefined,
		};
	}

	/** Switches model (and its credentials and reasoning level) for the next answers. */
	async change(changes: Partial<ConversationSetup>): Promise<void> {
		this.setup = { ...this.setup, ...changes };
		if (this.agent) {
			this.agent.state.model = this.setup.model;
			this.agent.state.thinkingLevel = this.setup.reasoning ?? "off";
		}
		await this.session?.updateState({ custom: { ...this.session.state.custom, chat: this.settings() } });
	}

	/**
	 * Sends one message and waits for the answer (tool calls included, each confirmed first). Returns
	 * the last answer, with stopReason "error" or "aborted" when it failed or was stopped.
	 */
	async send(text: string, attachments: UserContent[] = []): Promise<TimedAssistantMessage | undefined> {
		const agent = await this.ensureAgent(text);
		// Text alone goes as a string, as it was typed; with attachments, as content blocks.
		const content = attachments.length > 0 ? [{ type: "text" as const, text }, ...attachments] : text;
		await agent.prompt({ role: "user", content, timestamp: Date.now() });
		for (;;) {
			await this.decideApprovals(agent);
			// A line typed as the run was ending missed its last steering poll: it is answered now.
			if (!agent.hasQueuedMessages()) break;
			await agent.continue();
		}
		const last = agent.state.messages.at(-1);
		return last?.role === "assistant" ? (last as AssistantMessage) : undefined;
	}

	private async decideApprovals(agent: Agent): Promise<void> {
		while (agent.pendingApprovals.length > 0) {
			const decisions = [];
			for (const request of agent.pendingApprovals) {
				const approved = await this.confirm(request);
				decisions.push(
					approved
						? { toolCallId: request.toolCallId, approved: true as const }
						: { toolCallId: request.toolCallId, approved: false as const, reason: "The user refused this call" },
				);
			}
			await agent.decide(decisions);
		}
	}

	/**
	 * A line the user typed while the answer was being written: it interrupts the answer (whose text
	 * so far stays, marked as interrupted) and the model answers it next, with the conversation so
	 * far. Returns false when no answer is being written.
	 */
	steer(text: string): boolean {
		if (!this.agent || !this.answering) return false;
		const message = { role: "user" as const, content: text, timestamp: Date.now() };
		this.steering.add(message);
		this.agent.steer(message, { interrupt: true });
		return true;
	}

	/**
	 * Holds the answer's output while the user types a line (the spinner stops). Returns the column
	 * the answer stopped at, for `releaseOutput`.
	 */
	holdOutput(): number | undefined {
		this.printer.stopSpinner();
		return this.output.hold();
	}

	/** Writes what was held, the cursor having been put back at `column` of the answer's last line. */
	releaseOutput(column: number | undefined): void {
		this.output.release(column);
	}

	/** Stops the answer being written (the request is aborted) and drops typed lines not yet sent. */
	abort(): void {
		this.agent?.clearSteeringQueue();
		this.agent?.abort();
	}

	get answering(): boolean {
		return this.agent?.state.isStreaming === true;
	}

	/** Starts a new conversation (a new session from the next message). */
	async clear(): Promise<void> {
		await this.close();
		this.agent = undefined;
		this.session = undefined;
	}

	async close(): Promise<void> {
		await this.agent?.waitForIdle();
		await this.session?.close();
	}

	private async ensureAgent(firstMessage: string): Promise<Agent> {
		if (this.agent) return this.agent;
		if (this.store) {
			this.session = await Session.create(this.store, {
				sessionId: createSessionId(),
				title: titleFrom(firstMessage),
				state: { custom: { chat: this.settings() } },
			});
		}
		this.agent = this.createAgent(this.session);
		return this.agent;
	}

	private createAgent(session: Session | undefined): Agent {
		const agent = new Agent({
			initialState: {
				model: this.setup.model,
				systemPrompt: this.setup.systemPrompt ?? "",
				thinkingLevel: this.setup.reasoning ?? "off",
				tools: this.setup.tools,
			},
			...(session ? sessionAgentOptions(session) : {}),
			streamFn: createTimedStreamFunction(() => this.setup),
			approvalPolicy: () => (this.setup.confirmTools ? true : undefined),
		});
		agent.subscribe((event) => this.show(event));
		return agent;
	}

	/** A typed line as it goes to the model, after the answer it cut off: on its own line, as typed. */
	private showSteering(message: { content: string }): void {
		this.printer.stopSpinner();
		this.output.stdout.write(`${this.styles.cyan("> ")}${message.content}\n`);
		if (!this.output.isHeld) this.printer.waiting(this.setup.model);
	}

	private show(event: AgentEvent): void {
		const { printer } = this;
		switch (event.type) {
			case "turn_start":
				if (!this.output.isHeld) printer.waiting(this.setup.model);
				return;
			case "message_start":
				if (event.message.role === "assistant") printer.start();
				return;
			case "message_update":
				printer.event(event.assistantMessageEvent);
				return;
			case "message_end":
				if (event.message.role === "assistant") printer.end(event.message as AssistantMessage);
				else if (this.steering.has(event.message)) this.showSteering(event.message as { content: string });
				return;
			case "tool_execution_start":
				printer.note(`→ ${event.toolName} ${JSON.stringify(event.args)}`);
				return;
			case "tool_execution_end": {
				const text = event.result.content.map((block) => (block.type === "text" ? block.text : "[image]")).join(" ");
				printer.note(`${event.isError ? "✗" : "←"} ${event.toolName}: ${text}`);
				return;
			}
			default:
				return;
		}
	}
}
