import { sanitizeServerText } from "../call/secret-redaction.js";
import { calculateCost } from "../models/cost.js";
import type {
	Api,
	AssistantMessage,
	AssistantMessageEvent,
	Model,
	StopReason,
	TextContent,
	ThinkingContent,
	ToolCall,
	Usage,
} from "../types.js";
import { createEmptyAssistantMessage } from "../utils/event-stream.js";
import { StreamingJsonParser } from "../utils/streaming-json.js";

type Emit = (event: AssistantMessageEvent) => void;

/** What the builder must keep out of the message. */
export interface AssistantMessageBuilderOptions {
	/**
	 * The call's API key. Every string a server sends that the builder copies into the message
	 * outside its content (`errorMessage`, `rawStopReason`, `responseId`, `responseModel`,
	 * diagnostics) is redacted with it, then cut to a bounded length: here, and nowhere else.
	 */
	secret?: string;
}

/**
 * Longest tool-call argument text kept, in characters. Longer arguments are dropped: a message
 * holding them would be sent again with every later request of the conversation.
 */
export const MAX_TOOL_ARGUMENTS_LENGTH = 16 * 1024 * 1024;

/**
 * The diagnostic type of a tool call whose arguments were dropped because they exceed a bound
 * (nesting depth, length). Its arguments are `{}`; the agent answers the call with an error
 * result carrying the diagnostic's message instead of running the tool.
 */
export const TOOL_ARGUMENTS_REJECTED = "tool_arguments_rejected";

/** The arguments of one open tool call. */
interface ToolArgumentsState {
	/** Undefined once the arguments were dropped. */
	parser: StreamingJsonParser | undefined;
	length: number;
	/** Why the arguments were dropped. */
	rejection?: string;
}

export type UsageUpdate = Partial<Pick<Usage, "input" | "output" | "cacheRead" | "cacheWrite" | "totalTokens">>;

/**
 * Builds the assistant message a provider streams and emits our events for it. Decoders call it;
 * it does no I/O. Events carry the same `partial` object (mutated in place, never copied), and
 * `contentIndex` is the index into `partial.content`.
 */
export class AssistantMessageBuilder {
	readonly message: AssistantMessage;
	private started = false;
	private sealed = false;
	private readonly open = new Set<number>();
	private readonly toolArguments = new Map<number, ToolArgumentsState>();
	private serviceTier: string | undefined;
	/** The call's API key and every credential registered with `addSecret`. */
	private readonly secrets: string[] = [];
	/** Events emitted so far; counted where each is emitted, so an event costs no extra call. */
	private emitted = 0;

	constructor(
		private readonly model: Model<Api>,
		private readonly emit: Emit,
		options: AssistantMessageBuilderOptions = {},
	) {
		this.message = createEmptyAssistantMessage(model.api, model.provider, model.id);
		if (options.secret) this.secrets.push(options.secret);
	}

	/** Emits `start` once. Every content method calls it first. */
	start(): void {
		if (this.started) return;
		this.started = true;
		this.emitted++;
		this.emit({ type: "start", partial: this.message });
	}

	/**
	 * How many events the message has emitted so far. The read loop (wire/pump.ts) compares it
	 * before and after a chunk: a chunk that emitted nothing is no progress for the idle watchdog.
	 */
	get eventCount(): number {
		return this.emitted;
	}

	/** True once any content block was started: from then on a request must not be retried. */
	get hasContent(): boolean {
		return this.message.content.length > 0;
	}

	// --- text ---------------------------------------------------------------------------------

	startText(textSignature?: string): number {
		const block: TextContent = { type: "text", text: "" };
		if (textSignature !== undefined) block.textSignature = textSignature;
		const index = this.addBlock(block);
		this.emitted++;
		this.emit({ type: "text_start", contentIndex: index, partial: this.message });
		return index;
	}

	appendText(index: number, delta: string): void {
		const block = this.block(index, "text");
		block.text += delta;
		this.emitted++;
		this.emit({ type: "text_delta", contentIndex: index, delta, partial: this.message });
	}

	endText(index: number, textSignature?: string): void {
		if (!this.open.delete(index)) return;
		const block = this.block(index, "text");
		if (textSignature !== undefined) block.textSignature = textSignature;
		this.emitted++;
		this.emit({ type: "text_end", contentIndex: index, content: block.text, partial: this.message });
	}

	// --- thinking -----------------------------------------------------------------------------

	startThinking(options: { signature?: string; redacted?: boolean; text?: string } = {}): number {
		const block: ThinkingContent = { type: "thinking", thinking: options.text ?? "" };
		if (options.signature !== undefined) block.thinkingSignature = options.signature;
		if (options.redacted) block.redacted = true;
		const index = this.addBlock(block);
		this.emitted++;
		this.emit({ type: "thinking_start", contentIndex: index, partial: this.message });
		return index;
	}

	appendThinking(index: number, delta: string): void {
		const block = this.block(index, "thinking");
		block.thinking += delta;
		this.emitted++;
		this.emit({ type: "thinking_delta", contentIndex: index, delta, partial: this.message });
	}

	/** Signatures arrive in pieces on some APIs; they are concatenated without an event. */
	appendThinkingSignature(index: number, delta: string): void {
		const block = this.block(index, "thinking");
		block.thinkingSignature = (block.thinkingSignature ?? "") + delta;
	}

	endThinking(index: number, signature?: string): void {
		if (!this.open.delete(index)) return;
		const block = this.block(index, "thinking");
		if (signature !== undefined) block.thinkingSignature = signature;
		this.emitted++;
		this.emit({ type: "thinking_end", contentIndex: index, content: block.thinking, partial: this.message });
	}

	// --- tool calls ---------------------------------------------------------------------------

	startToolCall(id: string, name: string, thoughtSignature?: string): number {
		const block: ToolCall = { type: "toolCall", id, name, arguments: {} };
		if (thoughtSignature !== undefined) block.thoughtSignature = thoughtSignature;
		const index = this.addBlock(block);
		this.toolArguments.set(index, { parser: new StreamingJsonParser(), length: 0 });
		this.emitted++;
		this.emit({ type: "toolcall_start", contentIndex: index, partial: this.message });
		return index;
	}

	/**
	 * Feeds an argument delta to the incremental parser: O(delta) work. Arguments nested deeper
	 * than the parser's limit or longer than MAX_TOOL_ARGUMENTS_LENGTH are dropped (see endToolCall).
	 */
	appendToolCallArguments(index: number, delta: string): void {
		const block = this.block(index, "toolCall");
		const state = this.toolArguments.get(index);
		if (!state) return;
		if (typeof delta !== "string" || delta === "") return;
		state.length += delta.length;
		if (state.parser && state.length > MAX_TOOL_ARGUMENTS_LENGTH) {
			this.rejectToolArguments(
				state,
				block,
				`they are longer than ${MAX_TOOL_ARGUMENTS_LENGTH} characters (the limit for one tool call)`,
			);
		} else if (state.parser) {
			const parser = state.parser;
			parser.push(delta);
			if (parser.limitExceeded) this.rejectToolArguments(state, block, parser.finish().error ?? "they exceed a limit");
			else if (isPlainObject(parser.value)) block.arguments = parser.value;
		}
		this.emitted++;
		this.emit({ type: "toolcall_delta", contentIndex: index, delta, partial: this.message });
	}

	private rejectToolArguments(state: ToolArgumentsState, block: ToolCall, reason: string): void {
		state.parser = undefined;
		state.rejection = reason;
		block.arguments = {};
	}

	/** True once any argument text arrived for the tool call. */
	hasToolCallArguments(index: number): boolean {
		return (this.toolArguments.get(index)?.length ?? 0) > 0;
	}

	toolCall(index: number): ToolCall {
		return this.block(index, "toolCall");
	}

	/**
	 * Ends a tool call. Arguments that are not one complete JSON object are kept as parsed so far
	 * and the problem is recorded in `diagnostics`, so validation can name it rather than crash.
	 */
	endToolCall(index: number, patch?: Partial<Pick<ToolCall, "id" | "name" | "thoughtSignature">>): void {
		if (!this.open.delete(index)) return;
		const block = this.block(index, "toolCall");
		if (patch) Object.assign(block, patch);
		const state = this.toolArguments.get(index);
		this.toolArguments.delete(index);
		const parser = state?.parser;
		if (state?.rejection !== undefined) {
			block.arguments = {};
			this.addDiagnostic(
				TOOL_ARGUMENTS_REJECTED,
				`Tool call "${block.name}" (${block.id}) arguments were dropped: ${state.rejection}. The tool was not given them; send smaller, flatter arguments.`,
				{ toolCallId: block.id, receivedLength: state.length },
			);
		} else if (parser && parser.source.trim() !== "") {
			const result = parser.finish();
			if (isPlainObject(result.value)) block.arguments = result.value;
			if (!result.complete || !isPlainObject(result.value)) {
				this.addDiagnostic(
					"invalid_tool_arguments",
					`Tool call "${block.name}" (${block.id}) arguments are not a complete JSON object: ${result.error ?? "not an object"}`,
					{
						toolCallId: block.id,
						received: parser.source.slice(0, 2000),
					},
				);
			}
		}
		this.emitted++;
		this.emit({ type: "toolcall_end", contentIndex: index, toolCall: block, partial: this.message });
	}

	// --- usage, identity, diagnostics ---------------------------------------------------------

	/** Overwrites the given usage fields, recomputes the total (unless given) and the cost. */
	updateUsage(update: UsageUpdate): void {
		this.assertNotSealed();
		const usage = this.message.usage;
		if (update.input !== undefined) usage.input = update.input;
		if (update.output !== undefined) usage.output = update.output;
		if (update.cacheRead !== undefined) usage.cacheRead = update.cacheRead;
		if (update.cacheWrite !== undefined) usage.cacheWrite = update.cacheWrite;
		usage.totalTokens = update.totalTokens ?? usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
		this.recomputeCost();
	}

	/** Service tiers bill at a multiple of the list price (flex 0.5, priority 2). */
	setServiceTier(serviceTier: string | undefined): void {
		this.serviceTier = serviceTier;
		this.recomputeCost();
	}

	setResponseIdentity(identity: { responseId?: string; responseModel?: string }): void {
		if (typeof identity.responseId === "string" && identity.responseId) {
			this.message.responseId = this.sanitize(identity.responseId);
		}
		if (
			typeof identity.responseModel === "string" &&
			identity.responseModel &&
			identity.responseModel !== this.model.id
		) {
			this.message.responseModel = this.sanitize(identity.responseModel);
		}
	}

	/** Records a diagnostic; its message and string details are redacted and bounded like server text. */
	addDiagnostic(type: string, message: string, details?: Record<string, unknown>): void {
		const safeDetails = details ? this.sanitizeDetails(details) : undefined;
		const diagnostic = {
			type,
			timestamp: Date.now(),
			error: { message: this.sanitize(message) },
			...(safeDetails ? { details: safeDetails } : {}),
		};
		if (!this.message.diagnostics) this.message.diagnostics = [];
		this.message.diagnostics.push(diagnostic);
	}

	/**
	 * Keeps one more credential out of the message, like the API key: a token the transport obtained
	 * or was given (an OAuth access token, a Bedrock bearer token, a refresh token). Register it
	 * before sending it, so any failure from then on is redacted.
	 */
	addSecret(secret: string | undefined): void {
		if (typeof secret !== "string" || secret === "" || this.secrets.includes(secret)) return;
		this.secrets.push(secret);
	}

	// --- ending ---------------------------------------------------------------------------------

	/** Closes every open block, in index order, emitting its end event. */
	private closeOpenBlocks(): void {
		for (const index of [...this.open].sort((a, b) => a - b)) {
			const block = this.message.content[index];
			if (block.type === "text") this.endText(index);
			else if (block.type === "thinking") this.endThinking(index);
			else this.endToolCall(index);
		}
	}

	/**
	 * Ends successfully. `stop` becomes `toolUse` when the message holds tool calls, because
	 * several APIs report a plain stop alongside tool calls.
	 */
	finish(stopReason: Extract<StopReason, "stop" | "length" | "toolUse">, rawStopReason?: string): AssistantMessage {
		this.assertNotSealed();
		this.start();
		this.closeOpenBlocks();
		const hasToolCalls = this.message.content.some((block) => block.type === "toolCall");
		const reason = stopReason === "stop" && hasToolCalls ? "toolUse" : stopReason;
		this.message.stopReason = reason;
		if (rawStopReason !== undefined) this.message.rawStopReason = this.sanitize(rawStopReason);
		this.sealed = true;
		this.emitted++;
		this.emit({ type: "done", reason, message: this.message });
		return this.message;
	}

	/** Ends with an error; content received so far is kept (open blocks are closed first). */
	fail(
		reason: Extract<StopReason, "error" | "aborted">,
		errorMessage: string,
		rawStopReason?: string,
	): AssistantMessage {
		this.assertNotSealed();
		this.start();
		this.closeOpenBlocks();
		this.message.stopReason = reason;
		this.message.errorMessage = this.sanitize(errorMessage);
		if (rawStopReason !== undefined) this.message.rawStopReason = this.sanitize(rawStopReason);
		this.sealed = true;
		this.emitted++;
		this.emit({ type: "error", reason, error: this.message });
		return this.message;
	}

	/** Forgets content and usage before a retry (only valid while `hasContent` is false). */
	resetForRetry(): void {
		this.open.clear();
		this.toolArguments.clear();
		this.message.content = [];
		this.updateUsage({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });
	}

	/**
	 * A server's string as it may enter the message or anything else the call reports (a span's
	 * status): every secret of the call redacted (the API key and each `addSecret` credential), then
	 * bounded.
	 */
	sanitize(text: string): string {
		return sanitizeServerText(typeof text === "string" ? text : String(text), this.secrets);
	}

	// --- internals ----------------------------------------------------------------------------

	private sanitizeDetails(details: Record<string, unknown>): Record<string, unknown> {
		const safe: Record<string, unknown> = {};
		for (const [name, value] of Object.entries(details)) {
			safe[name] = typeof value === "string" ? this.sanitize(value) : value;
		}
		return safe;
	}

	/**
	 * After the terminal event the message belongs to the caller: a decoder that keeps running
	 * (for example after a timeout) gets an exception instead of mutating it.
	 */
	seal(): void {
		this.sealed = true;
	}

	get isSealed(): boolean {
		return this.sealed;
	}

	private assertNotSealed(): void {
		if (this.sealed) throw new Error("The message was already finished; late stream data is ignored");
	}

	private addBlock(block: TextContent | ThinkingContent | ToolCall): number {
		this.assertNotSealed();
		this.start();
		const index = this.message.content.push(block) - 1;
		this.open.add(index);
		return index;
	}

	private block<TType extends "text" | "thinking" | "toolCall">(
		index: number,
		type: TType,
	): Extract<TextContent | ThinkingContent | ToolCall, { type: TType }> {
		this.assertNotSealed();
		const block = this.message.content[index];
		if (!block || block.type !== type) {
			throw new Error(`Stream decoding error: block ${index} is ${block ? block.type : "missing"}, expected ${type}`);
		}
		return block as Extract<TextContent | ThinkingContent | ToolCall, { type: TType }>;
	}

	private recomputeCost(): void {
		calculateCost(this.model, this.message.usage, this.serviceTier);
	}
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}
