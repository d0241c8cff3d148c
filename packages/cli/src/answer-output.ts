// Writes answers as they stream: text to stdout as it arrives; thinking dimmed, on a terminal only
// (a pipe gets the answer alone); a spinner until the first token; or, with --json, one event per
// line. Then the usage and cost on stderr. Fed event by event (from the Agent's message events),
// so one printer serves `keel prompt`, `keel chat` and every model call of a run with tools.
import { isInterruptedMessage } from "@keel/agent-core";
import type { Api, AssistantMessage, AssistantMessageEvent, Model, Usage } from "@keel/ai";
import { type Spinner, startSpinner } from "./spinner.js";
import { colorEnabled, createStyles, type Styles, type Terminal } from "./terminal.js";

export interface AnswerOutputOptions {
	json: boolean;
	/** Print the usage line on stderr after each answer. Default true. */
	usage?: boolean;
}

export class AnswerPrinter {
	private readonly stdoutStyles: Styles;
	private readonly stderrStyles: Styles;
	private readonly showThinking: boolean;
	private spinner: Spinner | undefined;
	private lastWritten = "\n";
	private block: "text" | "thinking" | undefined;

	constructor(
		private readonly terminal: Terminal,
		private readonly options: AnswerOutputOptions,
	) {
		this.stdoutStyles = createStyles(colorEnabled(terminal.stdout, terminal.env));
		this.stderrStyles = createStyles(colorEnabled(terminal.stderr, terminal.env));
		this.showThinking = terminal.stdout.isTTY === true;
	}

	/** A model call is about to start: the spinner, on a terminal. */
	waiting(model: Model<Api>): void {
		if (this.options.json || this.spinner) return;
		this.spinner = startSpinner(this.terminal.stderr, `${model.provider}/${model.id}`, this.stderrStyles);
	}

	stopSpinner(): void {
		this.spinner?.stop();
		this.spinner = undefined;
	}

	/** The provider started an answer. */
	start(): void {
		this.lastWritten = "\n";
		this.block = undefined;
		if (this.options.json) this.terminal.stdout.write(`${JSON.stringify({ type: "start" })}\n`);
	}

	event(event: AssistantMessageEvent): void {
		if (this.options.json) {
			this.terminal.stdout.write(`${JSON.stringify(eventWithoutPartial(event))}\n`);
			return;
		}
		if (event.type === "text_delta") {
			this.beginBlock("text");
			this.write(event.delta);
		} else if (event.type === "thinking_delta" && this.showThinking) {
			this.beginBlock("thinking");
			this.write(event.delta, this.stdoutStyles.dim(event.delta));
		}
	}

	/** The answer is complete (or failed, or was stopped). */
	end(message: AssistantMessage): void {
		this.stopSpinner();
		const { terminal, stderrStyles } = this;
		// Cut off by a steering message (a line typed during the answer), not by Ctrl-C.
		const interrupted = isInterruptedMessage(message);
		if (this.options.json) {
			const last =
				message.stopReason === "error" || message.stopReason === "aborted"
					? { type: "error", reason: message.stopReason, error: message }
					: { type: "done", reason: message.stopReason, message };
			terminal.stdout.write(`${JSON.stringify(last)}\n`);
		} else if (interrupted) {
			// The answer cut off by a line the user typed (keel chat): marked where it stops.
			const marker = this.stdoutStyles.dim("(interrupted)");
			terminal.stdout.write(this.lastWritten.endsWith("\n") ? `${marker}\n` : ` ${marker}\n`);
		} else if (!this.lastWritten.endsWith("\n")) {
			terminal.stdout.write("\n");
		}
		this.lastWritten = "\n";
		if (message.stopReason === "error") {
			terminal.stderr.write(`${stderrStyles.red("Error:")} ${message.errorMessage ?? "the model call failed"}\n`);
		} else if (message.stopReason === "aborted" && !interrupted) {
			terminal.stderr.write(`${stderrStyles.yellow("Aborted.")}\n`);
		} else if (message.stopReason === "length") {
			terminal.stderr.write(
				stderrStyles.yellow("(stopped at the maximum output length: raise it with --max-tokens)\n"),
			);
		}
		// An interrupted answer's line stays next to the line that cut it off (/cost still counts it).
		if (this.options.usage !== false && message.stopReason !== "error" && !interrupted) {
			terminal.stderr.write(`${stderrStyles.dim(formatUsage(message.usage))}\n`);
		}
	}

	/** A line on stderr about a tool call (dimmed), after any answer text on its own line. */
	note(text: string): void {
		this.stopSpinner();
		if (this.options.json) return;
		this.terminal.stderr.write(`${this.stderrStyles.dim(text)}\n`);
	}

	private write(text: string, styled: string = text): void {
		if (text === "") return;
		this.stopSpinner();
		this.terminal.stdout.write(styled);
		this.lastWritten = text;
	}

	private beginBlock(kind: "text" | "thinking"): void {
		// A blank line between the thinking and the answer that follows it.
		if (this.block !== undefined && this.block !== kind && !this.lastWritten.endsWith("\n\n")) {
			this.write(this.lastWritten.endsWith("\n") ? "\n" : "\n\n");
		}
		this.block = kind;
	}
}

/** "12 in, 340 out, 1,024 cache read · $0.0051": what the call cost, for stderr. */
export function formatUsage(usage: Usage): string {
	const parts = [`${usage.input.toLocaleString("en-US")} in`, `${usage.output.toLocaleString("en-US")} out`];
	if (usage.cacheRead > 0) parts.push(`${usage.cacheRead.toLocaleString("en-US")} cache read`);
	if (usage.cacheWrite > 0) parts.push(`${usage.cacheWrite.toLocaleString("en-US")} cache write`);
	return `${parts.join(", ")} · ${formatCost(usage.cost.total)}`;
}

/** $0, $0.0000012, $0.0051, $1.23: enough digits to tell a cheap call from a free one. */
export function formatCost(dollars: number): string {
	if (dollars === 0) return "$0";
	if (dollars < 0.01) return `$${Number(dollars.toPrecision(2))}`;
	return `$${dollars.toFixed(dollars < 1 ? 4 : 2)}`;
}

/**
 * An event as one JSON line: `partial` (the whole message so far) is left out, so each line is the
 * size of its delta; `done` and `error` carry the final message.
 */
export function eventWithoutPartial(event: AssistantMessageEvent): Record<string, unknown> {
	const { partial: _partial, ...rest } = event as AssistantMessageEvent & { partial?: unknown };
	return rest;
}
