// Steering that interrupts: a steering message that must be heard now cuts the run's current step
// short instead of waiting for it. A step is one model call or one batch of tool calls; each gets
// its own AbortController, linked to the run's signal, so an interrupt aborts the step and never
// the run. The loop (agent-loop.ts) asks this file for the step's signal and whether the step was
// interrupted; this file also says how an interrupted answer is shown to the model on the next call.
import type { AssistantMessage, Message } from "@keel/ai";
import type { AgentMessage } from "./types.js";

/** The `errorMessage` of an assistant message cut short by a steering interrupt (stopReason "aborted"). */
export const INTERRUPTED_BY_STEERING_TEXT = "Interrupted by a steering message";
/** The result of a tool call that had not started when a steering message interrupted the run. */
export const SKIPPED_FOR_INTERRUPT_TEXT = "Skipped: interrupted by a steering message.";
/** The result of a running tool call whose signal a steering interrupt aborted. */
export const INTERRUPTED_TOOL_TEXT = "Tool execution was interrupted by a steering message.";

/**
 * An assistant message cut short by a steering interrupt. Narrower than AssistantMessage, so code
 * that rules one out (`!isInterruptedMessage(message)`) keeps the other assistant messages typed.
 */
export type InterruptedAssistantMessage = AssistantMessage & { stopReason: "aborted"; errorMessage: string };

/** True for an assistant message cut short by a steering interrupt (not by an abort of the run). */
export function isInterruptedMessage(message: AgentMessage): message is InterruptedAssistantMessage {
	const candidate = message as Partial<AssistantMessage> | null;
	return (
		candidate?.role === "assistant" &&
		candidate.stopReason === "aborted" &&
		candidate.errorMessage === INTERRUPTED_BY_STEERING_TEXT
	);
}

/**
 * The run signal each step signal stands in for. A tool receives its step's signal, not the run's,
 * so per-run state keyed by the run's signal (an agent tool's nesting depth) is found through it.
 */
const runSignalOfStep = new WeakMap<AbortSignal, AbortSignal>();

/** The run signal behind a step's signal (the signal itself when it is not a step's). */
export function runSignalOf(signal: AbortSignal): AbortSignal {
	return runSignalOfStep.get(signal) ?? signal;
}

/**
 * The interrupts of one run. `interrupt` is what the run's caller gets (AgentLoopConfig's
 * `listenForInterrupts`); `beginStep` / `endStep` bracket each model call and tool batch.
 * Steps share one AbortController until an interrupt aborts it: a step costs no allocation and no
 * listener, which keeps the Agent's per-turn overhead where it was (docs/agent.md, "Performance").
 */
export class SteeringInterrupts {
	/** Set by an interrupt; cleared when steering is next polled (what was queued then goes next). */
	requested = false;
	/** True once an interrupt aborted the current (or last) step, until the next step begins. */
	stepInterrupted = false;
	private inStep = false;
	private controller = new AbortController();

	constructor(private readonly runSignal: AbortSignal | undefined) {
		if (runSignal) runSignalOfStep.set(this.controller.signal, runSignal);
		if (runSignal?.aborted) this.controller.abort();
		else runSignal?.addEventListener("abort", this, { once: true });
	}

	/** Cuts the step in flight short; between steps, the next step starts already interrupted. */
	readonly interrupt = (): void => {
		this.requested = true;
		if (this.inStep && !this.controller.signal.aborted) {
			this.stepInterrupted = true;
			this.controller.abort();
		}
	};

	/** Starts a step: its signal aborts with the run's signal or on an interrupt. */
	beginStep(): AbortSignal {
		this.inStep = true;
		this.stepInterrupted = false;
		const runAborted = this.runSignal?.aborted === true;
		// The last step was interrupted: this one gets a fresh signal.
		if (this.controller.signal.aborted && !runAborted) {
			this.controller = new AbortController();
			if (this.runSignal) runSignalOfStep.set(this.controller.signal, this.runSignal);
		}
		if (this.requested && !runAborted) {
			this.stepInterrupted = true;
			this.controller.abort();
		}
		return this.controller.signal;
	}

	endStep(): void {
		this.inStep = false;
	}

	/** The run has ended: stop listening to its signal. */
	dispose(): void {
		this.runSignal?.removeEventListener("abort", this);
	}

	/** The run's signal aborted: so does the step's (the listener object form saves a closure). */
	handleEvent(): void {
		this.controller.abort();
	}
}

/**
 * The messages as the model sees them: each interrupted answer becomes what was said before the
 * interrupt. @keel/ai drops aborted messages (their content may be half a tool call or thinking
 * without its signature, which APIs reject), which would hide from the model what it had already
 * told the user. So an interrupted answer is sent as a finished one holding only its text; its
 * thinking and tool calls are left out (none of its calls ran), and so are the results that answer
 * them. One with no text is left out entirely. Returns `messages` itself when none was interrupted.
 */
export function showInterruptedAnswers(messages: Message[]): Message[] {
	let first = -1;
	for (let index = 0; index < messages.length; index++) {
		if (isInterruptedMessage(messages[index])) {
			first = index;
			break;
		}
	}
	if (first === -1) return messages;
	const shown = messages.slice(0, first);
	// The ids of the left-out calls of the latest interrupted answer: their results go too.
	let droppedCalls = new Set<string>();
	for (let index = first; index < messages.length; index++) {
		const message = messages[index];
		if (message.role === "toolResult" && droppedCalls.has(message.toolCallId)) continue;
		if (message.role !== "assistant") {
			shown.push(message);
			continue;
		}
		droppedCalls = new Set();
		if (!isInterruptedMessage(message)) {
			shown.push(message);
			continue;
		}
		const content: AssistantMessage["content"] = [];
		for (const block of message.content) {
			if (block.type === "text" && block.text.trim() !== "") content.push({ type: "text", text: block.text });
			else if (block.type === "toolCall") droppedCalls.add(block.id);
		}
		if (content.length === 0) continue;
		const { errorMessage: _errorMessage, ...rest } = message;
		shown.push({ ...rest, content, stopReason: "stop" });
	}
	return shown;
}
