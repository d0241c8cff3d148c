// Writes one streamed answer: text to stdout as it arrives; thinking dimmed, on a terminal only
// (a pipe gets the answer alone); a spinner until the first token; or, with --json, one event per
// line. Then the usage and cost on stderr. Shared by `keel prompt` and `keel chat`.
import type { Api, AssistantMessage, AssistantMessageEvent, AssistantMessageEventStream, Model, Usage } from "@keel/ai";
import { startSpinner } from "./spinner.js";
import { colorEnabled, createStyles, type Terminal } from "./terminal.js";

export interface AnswerOutputOptions {
	json: boolean;
	/** Print the usage line on stderr after the answer. Default true. */
	usage?: boolean;
}

export async function writeAnswer(
	events: AssistantMessageEventStream,
	model: Model<Api>,
	terminal: Terminal,
	options: AnswerOutputOptions,
): Promise<AssistantMessage> {
	const stdoutStyles = createStyles(colorEnabled(terminal.stdout, terminal.env));
	const stderrStyles = createStyles(colorEnabled(terminal.stderr, terminal.env));
	const showThinking = terminal.stdout.isTTY === true;
	const spinner = options.json
		? { stop() {} }
		: startSpinner(terminal.stderr, `${model.provider}/${model.id}`, stderrStyles);
	let lastWritten = "\n";
	let block: "text" | "thinking" | undefined;
	const write = (text: string, styled: string = text) => {
		if (text === "") return;
		spinner.stop();
		terminal.stdout.write(styled);
		lastWritten = text;
	};
	const beginBlock = (kind: "text" | "thinking") => {
		// A blank line between the thinking and the answer that follows it.
		if (block !== undefined && block !== kind && !lastWritten.endsWith("\n\n")) {
			write(lastWritten.endsWith("\n") ? "\n" : "\n\n");
		}
		block = kind;
	};

	try {
		for await (const event of events) {
			if (options.json) {
				terminal.stdout.write(`${JSON.stringify(eventWithoutPartial(event))}\n`);
				continue;
			}
			if (event.type === "text_delta") {
				beginBlock("text");
				write(event.delta);
			} else if (event.type === "thinking_delta" && showThinking) {
				beginBlock("thinking");
				write(event.delta, stdoutStyles.dim(event.delta));
			}
		}
	} finally {
		spinner.stop();
	}
	const message = await events.result();
	if (!options.json && !lastWritten.endsWith("\n")) terminal.stdout.write("\n");
	if (message.stopReason === "error") {
		terminal.stderr.write(`${stderrStyles.red("Error:")} ${message.errorMessage ?? "the model call failed"}\n`);
		// The library's message speaks of options.apiKey; on the command line the ways in are these.
		if (message.errorMessage?.startsWith("No API key for provider")) {
			terminal.stderr.write(`Save a key with \`keel login ${model.provider}\`, or pass --key or set KEEL_API_KEY.\n`);
		}
	} else if (message.stopReason === "aborted") {
		terminal.stderr.write(`${stderrStyles.yellow("Aborted.")}\n`);
	} else if (message.stopReason === "length") {
		terminal.stderr.write(stderrStyles.yellow("(stopped at the maximum output length: raise it with --max-tokens)\n"));
	}
	if (options.usage !== false && message.stopReason !== "error") {
		terminal.stderr.write(`${stderrStyles.dim(formatUsage(message.usage))}\n`);
	}
	return message;
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
