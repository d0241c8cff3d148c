// `keel prompt`: one question, the answer streamed to stdout. Piped stdin and the text argument
// combine as in simonw's llm: the piped text first, then the argument (here after a blank line).
import { type Context, streamSimple } from "@keel/ai";
import { writeAnswer } from "../answer-output.js";
import { resolveCallCredentials } from "../api-key.js";
import {
	type Command,
	EXIT_FAILURE,
	EXIT_INTERRUPTED,
	EXIT_SUCCESS,
	parseCommandArguments,
	parsePositiveInteger,
	UsageError,
} from "../command.js";
import { MODEL_OPTIONS, MODEL_OPTIONS_HELP, selectModel, selectReasoning } from "../model-selection.js";
import { readAll, type Terminal } from "../terminal.js";

const help = `Usage: keel prompt [text] [options]

Sends one prompt and streams the answer to stdout. Text piped on stdin comes first, then the text
argument, so \`cat file | keel prompt "summarise this"\` asks about the file. On a terminal a
spinner waits for the first token and the model's thinking is shown dimmed; piped, stdout holds the
answer alone. The token usage and cost go to stderr.

Options:
${MODEL_OPTIONS_HELP}
  -s, --system text        the system prompt
      --max-tokens n       the most tokens the answer may use
      --json               print every stream event as one JSON line (no partial message)
  -h, --help               show this help

Exit codes: 0 answered, 1 the call failed (the error is on stderr), 2 a wrong command line,
130 stopped with Ctrl-C.

Examples:
  keel prompt -m anthropic/claude-sonnet-4-5 "Ten names for a pet pelican"
  git diff | keel prompt -m openai/gpt-4o-mini -s "Write a commit message" 
  keel prompt -m qwen3:8b --base-url http://127.0.0.1:11434/v1 "Hello"
  keel prompt -m openai/o4-mini --reasoning high "Is 1001 prime?" --json | jq -c .type`;

export const promptCommand: Command = {
	name: "prompt",
	summary: "send one prompt and stream the answer (reads piped stdin)",
	help,
	async run(args, terminal) {
		const { values, positionals } = parseCommandArguments("prompt", args, {
			...MODEL_OPTIONS,
			system: { type: "string", short: "s" },
			"max-tokens": { type: "string" },
			json: { type: "boolean" },
		});
		const model = selectModel(
			"prompt",
			{ model: values.model, baseUrl: values["base-url"], api: values.api },
			terminal.env,
		);
		const reasoning = selectReasoning("prompt", model, values.reasoning);
		const maxTokens = parsePositiveInteger("prompt", "--max-tokens", values["max-tokens"]);
		const text = await promptText(positionals, terminal);
		const credentials = await resolveCallCredentials(model, values.key, terminal.env);
		if (reasoning.note) terminal.stderr.write(`${reasoning.note}\n`);

		const context: Context = {
			systemPrompt: values.system,
			messages: [{ role: "user", content: text, timestamp: Date.now() }],
		};
		const controller = new AbortController();
		const stopListening = terminal.onInterrupt(() => controller.abort());
		try {
			const events = streamSimple(model, context, {
				...credentials,
				maxTokens,
				reasoning: reasoning.level,
				signal: controller.signal,
			});
			const message = await writeAnswer(events, model, terminal, { json: values.json === true });
			if (message.stopReason === "aborted") return EXIT_INTERRUPTED;
			return message.stopReason === "error" ? EXIT_FAILURE : EXIT_SUCCESS;
		} finally {
			stopListening();
		}
	},
};

async function promptText(positionals: string[], terminal: Terminal): Promise<string> {
	const argument = positionals.join(" ");
	const piped = terminal.stdin.isTTY === true ? "" : await readAll(terminal.stdin);
	const parts = [piped.replace(/\s+$/, ""), argument].filter((part) => part.trim() !== "");
	if (parts.length === 0) {
		throw new UsageError('no prompt: give the text as an argument (keel prompt "…") or pipe it on stdin', "prompt");
	}
	return parts.join("\n\n");
}
