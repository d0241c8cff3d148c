import type {
	AssistantMessage,
	AssistantMessageEvent,
	AssistantMessageEventStream,
	Context,
	ThinkingLevel as LlmThinkingLevel,
	Message,
	Model,
	SchemaOutput,
	SimpleStreamOptions,
	Tool,
	ToolCall,
	ToolParameters,
	ToolResultContent,
	ToolResultMessage,
	Usage,
} from "@keel/ai";

// ---------------------------------------------------------------------------
// Messages
// ---------------------------------------------------------------------------

/**
 * Extend by declaration merging to add application message types to the transcript:
 *
 * ```ts
 * declare module "@keel/agent-core" {
 *   interface CustomAgentMessages { note: { role: "note"; text: string; timestamp: number } }
 * }
 * ```
 * Such messages never reach the model unless `convertToLlm` turns them into LLM messages.
 */
// biome-ignore lint/suspicious/noEmptyInterface: extended by declaration merging
export interface CustomAgentMessages {}

/** A message in an agent's transcript: an LLM message or an application-defined one. */
export type AgentMessage = Message | CustomAgentMessages[keyof CustomAgentMessages];

// ---------------------------------------------------------------------------
// Stream function, modes, thinking level
// ---------------------------------------------------------------------------

/**
 * What the loop calls for each assistant response; `streamSimple` by default. It may return the
 * stream or a promise of it (a proxy may need to await something first). The loop also survives a
 * stream function that throws or rejects: the run then ends with an error assistant message.
 */
export type StreamFn = (
	model: Model,
	context: Context,
	options?: SimpleStreamOptions,
) => AssistantMessageEventStream | Promise<AssistantMessageEventStream>;

/** "parallel" runs the calls of one assistant message concurrently; results stay in call order. */
export type ToolExecutionMode = "sequential" | "parallel";

/**
 * When queued steering messages are looked at during a turn with tool calls.
 * - "after-each-tool" (default): after each tool finishes; the calls not yet run are skipped with
 *   the error result `Skipped due to queued user message.` so the user is heard at once.
 * - "after-turn": only once the whole turn is done; no tool call is ever skipped.
 * An interrupt (`steer(message, { interrupt: true })`) is heard at once in either mode.
 */
export type SteeringCheck = "after-each-tool" | "after-turn";

/** How a poll of a queue takes messages: the first one only, or everything queued. */
export type QueueMode = "one-at-a-time" | "all";

/** The LLM thinking levels plus "off", which sends no reasoning option at all. */
export type ThinkingLevel = "off" | LlmThinkingLevel;

// ---------------------------------------------------------------------------
// Tools
// ---------------------------------------------------------------------------

/** A tool call as it appears in an assistant message. */
export type AgentToolCall = ToolCall;

/**
 * What a tool returns: `content` goes to the model, `details` only to the application (UI, logs).
 * `terminate: true` on every result of a batch ends the run after that turn.
 */
export interface AgentToolResult<TDetails = unknown> {
	/** Text, images and files (a PDF the tool fetched): see docs/files.md for how each API carries them. */
	content: ToolResultContent[];
	details: TDetails;
	terminate?: boolean;
	/**
	 * Tokens and cost the tool itself spent (a tool that calls a model). Reported on
	 * tool_execution_end and kept on the toolResult message (`usage`) for accounting; never counted
	 * as the conversation's own usage (`sumUsage` adds both).
	 */
	usage?: Usage;
	/**
	 * Reports a failure without throwing: the model sees `content` as an error result, as for a
	 * throw, but `details` and `usage` are kept.
	 */
	isError?: boolean;
}

/** Streams partial results to the UI (tool_execution_update); they never reach the model. */
export type AgentToolUpdateCallback<TDetails = unknown> = (partialResult: AgentToolResult<TDetails>) => void;

/**
 * Whether one call needs approval. Written as a method's type so its parameter is checked like
 * `execute`'s: a tool with typed arguments is still an `AgentTool`.
 */
export type ToolApprovalCheck<TArgs> = {
	check(args: TArgs, context: ToolApprovalContext): boolean | Promise<boolean>;
}["check"];

/**
 * A tool the agent runs. `parameters` is a TypeBox schema, a Standard Schema (Zod 4, Valibot,
 * ArkType, …) or a JSON Schema object; `execute` receives the validated arguments, typed from it.
 */
export interface AgentTool<TParameters extends ToolParameters = ToolParameters, TDetails = unknown>
	extends Tool<TParameters> {
	/** A human-readable name for UIs. */
	label: string;
	/** "sequential" forces the whole batch this call belongs to to run one call at a time. */
	executionMode?: ToolExecutionMode;
	/**
	 * Runs before validation on the raw arguments, to accept older or sloppy shapes
	 * (for example a renamed field). Its result is what gets validated.
	 */
	prepareArguments?(args: unknown): unknown;
	/**
	 * True, or a function of the validated arguments returning true, when a call must wait for the
	 * user's approval: the run then pauses (see docs/approvals.md). The loop's `approvalPolicy`, when
	 * it returns a boolean, decides instead.
	 */
	requiresApproval?: boolean | ToolApprovalCheck<SchemaOutput<TParameters>>;
	/**
	 * Runs the tool. Throw to report a failure: the message becomes an error result for the model.
	 * Honour `signal`: on abort the loop stops waiting for you and discards a late result.
	 */
	execute(
		toolCallId: string,
		params: SchemaOutput<TParameters>,
		signal?: AbortSignal,
		onUpdate?: AgentToolUpdateCallback<TDetails>,
	): Promise<AgentToolResult<TDetails>>;
}

// ---------------------------------------------------------------------------
// Hooks
// ---------------------------------------------------------------------------

export interface BeforeToolCallContext {
	assistantMessage: AssistantMessage;
	toolCall: AgentToolCall;
	/** The validated arguments the tool would receive. */
	args: unknown;
	context: AgentContext;
}

/**
 * Return `{ block: true, reason }` to refuse a call; the reason becomes its error result. With
 * `terminate: true` as well, the refusal counts as asking to end the run: when every result of the
 * batch asks so, the run ends after that turn.
 */
export interface BeforeToolCallResult {
	block?: boolean;
	reason?: string;
	terminate?: boolean;
}

export interface AfterToolCallContext extends BeforeToolCallContext {
	result: AgentToolResult;
	isError: boolean;
}

/** Each field that is not undefined replaces the tool's own. */
export interface AfterToolCallResult {
	content?: ToolResultContent[];
	details?: unknown;
	isError?: boolean;
	terminate?: boolean;
	/** Replaces the tool's own `usage`. */
	usage?: Usage;
}

export interface ShouldStopAfterTurnContext {
	message: AssistantMessage;
	toolResults: ToolResultMessage[];
	context: AgentContext;
	/** Every message this run has added so far. */
	newMessages: AgentMessage[];
}

/** What prepareNextTurn sees: the turn that just ended. */
export type PrepareNextTurnContext = ShouldStopAfterTurnContext;

/** What finishTurn sees: the turn that just ended, its tool results appended to the context. */
export type AgentTurnContext = ShouldStopAfterTurnContext;

/** finishTurn's answer; undefined keeps the loop's own scheduling. */
export type AgentTurnDecision = { action: "continue" } | { action: "end" };

/**
 * Called after a turn's assistant message and tool results, before `turn_end`. `{ action: "end" }`
 * ends the run after `turn_end` (unless steering messages already taken from the queue wait, which
 * are never dropped); `{ action: "continue" }` makes sure one more LLM call follows, with the
 * current context when no tool result, steering or follow-up asks for one anyway (a tool's
 * `terminate` included). Called on error and aborted turns too, whose runs end whatever it answers.
 */
export type FinishTurn = (
	turn: AgentTurnContext,
	signal?: AbortSignal,
	// biome-ignore lint/suspicious/noConfusingVoidType: a hook with no return statement is a valid hook.
) => MaybePromise<AgentTurnDecision | undefined | void>;

/** What prepareRequest sees: the state the next LLM call would use. */
export interface PrepareRequestContext {
	context: AgentContext;
	model: Model;
	/** "off" when the run sends no reasoning level. */
	thinkingLevel: ThinkingLevel;
}

/** Changes for the LLM call being prepared (and later calls of the run): prepareNextTurn's, without messages. */
export type AgentRequestUpdate = Omit<AgentLoopTurnUpdate, "messages">;

/**
 * Called right before every LLM call of a run, the first included, after queued messages entered
 * the transcript. What it returns replaces the run's context fields, model and thinking level for
 * this call and the later ones. It polls no queue.
 */
export type PrepareRequest = (
	request: PrepareRequestContext,
	signal?: AbortSignal,
	// biome-ignore lint/suspicious/noConfusingVoidType: a hook with no return statement is a valid hook.
) => MaybePromise<AgentRequestUpdate | undefined | void>;

/**
 * Changes for the next LLM call of a run, returned by prepareNextTurn. Each field given replaces the
 * run's own from that call on; `messages` are added to the transcript first, with their events.
 */
export interface AgentLoopTurnUpdate {
	context?: Partial<AgentContext>;
	messages?: AgentMessage[];
	model?: Model;
	thinkingLevel?: ThinkingLevel;
}

// ---------------------------------------------------------------------------
// Loop context and configuration
// ---------------------------------------------------------------------------

export interface AgentContext {
	systemPrompt: string;
	messages: AgentMessage[];
	tools?: AgentTool[];
}

type MaybePromise<T> = T | Promise<T>;

/**
 * Configuration of one run. Every SimpleStreamOptions field (sessionId, onPayload, onResponse,
 * transport, thinkingBudgets, maxRetryDelayMs, reasoning, …) is passed to the stream function.
 *
 * The callbacks may throw: the loop turns a throw into an error assistant message and still ends
 * with turn_end and agent_end (except the tool hooks, whose throws become error tool results).
 */
export interface AgentLoopConfig extends SimpleStreamOptions {
	model: Model;
	/** The only place AgentMessages become LLM messages; runs before every LLM call. */
	convertToLlm: (messages: AgentMessage[]) => MaybePromise<Message[]>;
	/** Runs before `convertToLlm` on every LLM call, for pruning or injecting context. */
	transformContext?: (messages: AgentMessage[], signal?: AbortSignal) => MaybePromise<AgentMessage[]>;
	/** Resolves the key per call (short-lived tokens); falls back to `apiKey`. */
	getApiKey?: (provider: string) => MaybePromise<string | undefined>;
	/** Polled for messages the user typed while the agent works. */
	getSteeringMessages?: () => MaybePromise<AgentMessage[]>;
	/** Polled when the agent would otherwise stop. */
	getFollowUpMessages?: () => MaybePromise<AgentMessage[]>;
	/** Default "parallel". */
	toolExecution?: ToolExecutionMode;
	/** Default "after-each-tool". */
	steeringCheck?: SteeringCheck;
	/**
	 * Lets the caller interrupt the run for steering. Called once as the run starts with `interrupt`;
	 * calling `interrupt()` cuts the step in flight short: the model call ends as aborted, its answer
	 * so far kept with `errorMessage` INTERRUPTED_BY_STEERING_TEXT; running tools see their signal
	 * abort; calls not started are skipped. Then steering is polled and its messages go next; the run
	 * itself goes on (its signal is not aborted). The function returned is called when the run ends.
	 * Queue the steering message before calling `interrupt()`: the Agent's `steer(message, { interrupt: true })`
	 * does both.
	 */
	listenForInterrupts?: (interrupt: () => void) => (() => void) | undefined;
	beforeToolCall?: (
		context: BeforeToolCallContext,
		signal?: AbortSignal,
	) => MaybePromise<BeforeToolCallResult | undefined>;
	afterToolCall?: (
		context: AfterToolCallContext,
		signal?: AbortSignal,
	) => MaybePromise<AfterToolCallResult | undefined>;
	/**
	 * Decides whether a prepared call waits for approval: true or false decides, undefined leaves it
	 * to the tool's `requiresApproval`. A throw refuses the call (an error result).
	 */
	approvalPolicy?: (context: ToolApprovalPolicyContext, signal?: AbortSignal) => MaybePromise<boolean | undefined>;
	/**
	 * Called before each turn after the first (after steering and follow-ups were taken), to switch
	 * model or thinking level, replace context, or add messages for the next LLM call.
	 */
	prepareNextTurn?: (context: PrepareNextTurnContext) => MaybePromise<AgentLoopTurnUpdate | undefined>;
	/** Called after each turn_end; returning true ends the run (agent_end) without polling follow-ups. */
	shouldStopAfterTurn?: (context: ShouldStopAfterTurnContext) => MaybePromise<boolean>;
	/** Before turn_end: end the run, or make sure one more LLM call follows (see FinishTurn). */
	finishTurn?: FinishTurn;
	/** Right before every LLM call, the first included (see PrepareRequest). */
	prepareRequest?: PrepareRequest;
}

// ---------------------------------------------------------------------------
// Events
// ---------------------------------------------------------------------------

/**
 * The events of a run, in this shape (see docs/agent.md for the full trees):
 * agent_start → (turn_start → message_start/update/end … → tool_execution_start/update/end and the
 * toolResult message events … → turn_end)+ → agent_end. agent_end is always the last event.
 * A run whose tool calls wait for approval ends with `agent_end` carrying `pausedRun`.
 */
export type AgentEvent =
	| { type: "agent_start" }
	/**
	 * `messages` are the messages this run added, in transcript order. `pausedRun` is set when the
	 * run stopped because tool calls wait for approval: the plain-JSON state that resumes it.
	 */
	| { type: "agent_end"; messages: AgentMessage[]; pausedRun?: PausedToolRun }
	| { type: "turn_start" }
	| { type: "turn_end"; message: AgentMessage; toolResults: ToolResultMessage[] }
	| { type: "message_start"; message: AgentMessage }
	| { type: "message_update"; message: AgentMessage; assistantMessageEvent: AssistantMessageEvent }
	| { type: "message_end"; message: AgentMessage }
	| { type: "tool_execution_start"; toolCallId: string; toolName: string; args: unknown }
	| {
			type: "tool_execution_update";
			toolCallId: string;
			toolName: string;
			args: unknown;
			partialResult: AgentToolResult;
	  }
	| { type: "tool_execution_end"; toolCallId: string; toolName: string; result: AgentToolResult; isError: boolean }
	/** A call waits for approval (after its tool_execution_start); the run pauses once its batch is done. */
	| { type: "tool_approval_request"; toolCallId: string; toolName: string; args: unknown }
	/** A resumed run reports each decision before the approved tool runs (or the denied call ends). */
	| { type: "tool_approval_response"; toolCallId: string; toolName: string; approved: boolean; reason?: string };

/** Receives the events of `runAgentLoop`; a returned promise is awaited before the loop goes on. */
export type AgentEventSink = (event: AgentEvent) => void | Promise<void>;

// ---------------------------------------------------------------------------
// Agent state
// ---------------------------------------------------------------------------

export interface AgentState {
	systemPrompt: string;
	model: Model;
	thinkingLevel: ThinkingLevel;
	/** Assigning an array stores a copy. */
	tools: AgentTool[];
	/** Assigning an array stores a copy. */
	messages: AgentMessage[];
	isStreaming: boolean;
	/** The message being streamed, or null. */
	streamingMessage: AgentMessage | null;
	/** Ids of the tool calls that are running; a new Set on every change. */
	pendingToolCalls: ReadonlySet<string>;
	/** The error of the last run, if it ended with one. */
	errorMessage?: string;
}

// ---------------------------------------------------------------------------
// Tool approvals: the serialisable state of a run that stopped to wait for tool approvals, and the
// decisions that resume it. Everything here is plain JSON: a paused run can be stored (in a session,
// a database, a cookie) and resumed by another process after a restart.
// ---------------------------------------------------------------------------

/**
 * One call of the paused batch, in call order.
 * - "done": it ran (or was refused before running) while the batch went on; its result is held here
 *   and enters the transcript, in call order, when the batch completes.
 * - "recorded": its result is already in the transcript (a sequential batch records each result
 *   as its call ends, so the calls before the one that waits are answered already).
 * - "pending": it waits for a decision; `args` are the validated arguments it will run with, and
 *   `decision` is set once one was given (stored before the call runs, so a restart honours it).
 * - "not-started": a sequential batch's call after the one that waits; it is prepared and run,
 *   gated again if it needs approval, once the calls before it are done.
 */
export type PausedToolCall =
	| { status: "done"; toolCallId: string; toolName: string; result: AgentToolResult; isError: boolean }
	| { status: "recorded"; toolCallId: string; toolName: string }
	| {
			status: "pending";
			toolCallId: string;
			toolName: string;
			args: unknown;
			decision?: ToolApprovalDecision;
	  }
	| { status: "not-started"; toolCallId: string; toolName: string };

/**
 * A run that stopped because tool calls wait for approval. The transcript the run worked on ends with
 * `assistantMessage` (plus, in a sequential batch, the results of the calls marked "recorded").
 * Tool results' `details` must be JSON values for the state to survive storage.
 */
export interface PausedToolRun {
	/** The format version (PAUSED_TOOL_RUN_VERSION); a stored state of another version is refused with a clear error. */
	version: 1;
	/** A fresh id per pause; stored records of one pause carry it. */
	pauseId: string;
	/** The assistant message whose tool calls make up the batch. */
	assistantMessage: AssistantMessage;
	calls: PausedToolCall[];
}

/** What a `tool_approval_request` event and `pendingApprovals` tell about a waiting call. */
export interface ToolApprovalRequest {
	toolCallId: string;
	toolName: string;
	/** The validated arguments the tool will receive when approved. */
	args: unknown;
}

/** An answer to a waiting call. A denial's reason is what the model sees as the call's error result. */
export type ToolApprovalDecision =
	| { toolCallId: string; approved: true }
	| { toolCallId: string; approved: false; reason?: string };

/** What decides whether a call needs approval: the tool's own flag or function gets this. */
export interface ToolApprovalContext {
	assistantMessage: AssistantMessage;
	toolCall: AgentToolCall;
	context: AgentContext;
}

/** What the loop's approval policy gets: the tool and its validated arguments besides the call. */
export interface ToolApprovalPolicyContext extends ToolApprovalContext {
	tool: AgentTool;
	args: unknown;
}
