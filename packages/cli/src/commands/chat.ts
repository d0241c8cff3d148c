// `keel chat`: a conversation in the terminal, stored as a session transcript so it can be resumed.
// Ctrl-C while the model answers stops that answer and returns to the prompt; at an empty prompt
// it says how to leave, and a second Ctrl-C (or Ctrl-D, or /exit) leaves.
import { createInterface, type Interface } from "node:readline";
import { type Api, type AssistantMessage, type Message, type Model, streamSimple, type ThinkingLevel } from "@keel/ai";
import { formatCost, formatUsage, writeAnswer } from "../answer-output.js";
import { type CallCredentials, resolveCallCredentials } from "../api-key.js";
import {
	type Command,
	EXIT_FAILURE,
	EXIT_SUCCESS,
	parseCommandArguments,
	parsePositiveInteger,
	UsageError,
} from "../command.js";
import { MODEL_OPTIONS, MODEL_OPTIONS_HELP, selectModel, selectReasoning } from "../model-selection.js";
import { type ChatSettings, ChatTranscriptWriter, readChatTranscript } from "../sessions/chat-transcript.js";
import { openSessionStore } from "../sessions/session-store.js";
import { colorEnabled, createStyles, type Styles, type Terminal } from "../terminal.js";

const help = `Usage: keel chat [options]

A conversation with a model. Every turn is stored as a session (see \`keel sessions\`), so
\`keel chat --resume\` continues the last one. Type a message and press Enter; lines starting
with / are commands:

  /model [provider/id]   show or switch the model
  /reasoning [level]     show or set the reasoning level (off, minimal, low, medium, high, xhigh)
  /cost                  tokens and cost of this conversation so far
  /clear                 start a new conversation (a new session)
  /help                  list these commands
  /exit                  leave (Ctrl-D too)

Ctrl-C stops the answer being written and keeps the chat open; at an empty prompt, press it twice
to leave. With stdin piped, each line is one message.

Options:
${MODEL_OPTIONS_HELP}
  -s, --system text        the system prompt
      --max-tokens n       the most tokens each answer may use
      --resume [id]        continue a stored session: the given one, or the most recent
  -h, --help               show this help

Sessions are stored in $KEEL_HOME/sessions (default ~/.keel/sessions).

Examples:
  keel chat -m anthropic/claude-sonnet-4-5
  keel chat -m qwen3:8b --base-url http://127.0.0.1:11434/v1
  keel chat --resume
  keel chat --resume 2026-11-22T23-45-01-k3j9x2`;

/** A session's title: the start of its first message, on one line. */
function titleFrom(text: string): string {
	const line = text.replace(/\s+/g, " ").trim();
	return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}

/** `--resume` takes an optional value: alone (or before another flag) it means the latest session. */
function normaliseResumeFlag(args: string[]): string[] {
	return args.flatMap((argument, index) => {
		if (argument !== "--resume") return [argument];
		const next = args[index + 1];
		return next === undefined || next.startsWith("-") ? ["--resume="] : [argument];
	});
}

export const chatCommand: Command = {
	name: "chat",
	summary: "chat with a model; conversations are stored as sessions",
	help,
	async run(args, terminal) {
		const { values, positionals } = parseCommandArguments("chat", normaliseResumeFlag(args), {
			...MODEL_OPTIONS,
			system: { type: "string", short: "s" },
			"max-tokens": { type: "string" },
			resume: { type: "string" },
		});
		if (positionals.length > 0) {
			throw new UsageError(
				`chat takes no text argument (got "${positionals.join(" ")}"); type it at the prompt`,
				"chat",
			);
		}
		const store = openSessionStore(terminal.env);
		let resumed: Awaited<ReturnType<typeof readChatTranscript>> | undefined;
		if (values.resume !== undefined) {
			const sessionId = values.resume === "" ? (await store.list())[0]?.sessionId : values.resume;
			if (sessionId === undefined) throw new UsageError("there is no stored session to resume", "chat");
			if (!(await store.exists(sessionId))) {
				throw new UsageError(`no session "${sessionId}" (keel sessions list shows them)`, "chat");
			}
			resumed = await readChatTranscript(store, sessionId);
		}
		// A resumed chat keeps its model and server unless the command line names others.
		const saved = values.model === undefined ? resumed?.settings : undefined;
		const flags = {
			model: values.model ?? saved?.model,
			baseUrl: values["base-url"] ?? saved?.baseUrl,
			api: values.api ?? saved?.api,
		};
		const model = selectModel("chat", flags, terminal.env);
		const reasoning = selectReasoning("chat", model, values.reasoning ?? resumed?.settings?.reasoning);
		const chat = new ChatLoop(terminal, {
			model,
			modelFlags: flags,
			reasoning: reasoning.level,
			systemPrompt: values.system ?? resumed?.settings?.systemPrompt,
			maxTokens: parsePositiveInteger("chat", "--max-tokens", values["max-tokens"]),
			credentials: await resolveCallCredentials(model, values.key, terminal.env),
			keyFlag: values.key,
		});
		if (reasoning.note) terminal.stderr.write(`${reasoning.note}\n`);
		if (resumed) {
			chat.transcript = await ChatTranscriptWriter.resume(store, resumed.sessionId);
			chat.messages.push(...chat.transcript.messages);
		}
		return chat.run((settings, firstMessage) => ChatTranscriptWriter.create(store, titleFrom(firstMessage), settings));
	},
};

interface ChatOptions {
	model: Model<Api>;
	modelFlags: { model?: string; baseUrl?: string; api?: string };
	reasoning: ThinkingLevel | undefined;
	systemPrompt: string | undefined;
	maxTokens: number | undefined;
	credentials: CallCredentials;
	keyFlag: string | undefined;
}

class ChatLoop {
	readonly messages: Message[] = [];
	transcript: ChatTranscriptWriter | undefined;
	private readonly styles: Styles;
	private readonly interactive: boolean;
	private answering: AbortController | undefined;
	private interruptedAtPrompt = false;

	constructor(
		private readonly terminal: Terminal,
		private options: ChatOptions,
	) {
		this.styles = createStyles(colorEnabled(terminal.stdout, terminal.env));
		this.interactive = terminal.stdin.isTTY === true && terminal.stdout.isTTY === true;
	}

	private get label(): string {
		return `${this.options.model.provider}/${this.options.model.id}`;
	}

	private settings(): ChatSettings {
		const { model } = this.options;
		const custom = model.provider === "custom";
		return {
			model: custom ? model.id : this.label,
			// A custom server is remembered so that --resume finds it again; a catalogue model needs no URL.
			baseUrl: custom ? model.baseUrl : undefined,
			api: custom ? model.api : undefined,
			reasoning: this.options.reasoning,
			systemPrompt: this.options.systemPrompt,
		};
	}

	async run(
		createTranscript: (settings: ChatSettings, firstMessage: string) => Promise<ChatTranscriptWriter>,
	): Promise<number> {
		const { terminal } = this;
		const readline = createInterface({
			input: terminal.stdin,
			output: this.interactive ? (terminal.stdout as NodeJS.WritableStream) : undefined,
			terminal: this.interactive,
			prompt: this.styles.cyan("> "),
		});
		const lines = lineQueue(readline);
		readline.on("SIGINT", () => this.onInterrupt(readline));
		if (this.interactive) {
			const resumedNote = this.transcript ? `, resuming session ${this.transcript.sessionId}` : "";
			terminal.stdout.write(
				this.styles.dim(`Chatting with ${this.label}${resumedNote}. /help lists commands, /exit or Ctrl-D leaves.\n`),
			);
		}
		let exitCode = EXIT_SUCCESS;
		try {
			for (;;) {
				if (this.interactive) readline.prompt();
				const line = await lines.next();
				if (line === undefined) break;
				this.interruptedAtPrompt = false;
				const text = line.trim();
				if (text === "") continue;
				if (text.startsWith("/")) {
					if ((await this.runSlashCommand(text)) === "exit") break;
					continue;
				}
				this.transcript ??= await createTranscript(this.settings(), text);
				const failed = await this.answer(text);
				if (failed && !this.interactive) exitCode = EXIT_FAILURE;
			}
		} finally {
			readline.close();
			await this.transcript?.close();
		}
		if (this.interactive) terminal.stdout.write("\n");
		if (this.transcript) terminal.stderr.write(this.styles.dim(`Session saved: ${this.transcript.sessionId}\n`));
		return exitCode;
	}

	private onInterrupt(readline: Interface): void {
		if (this.answering) {
			this.answering.abort();
			return;
		}
		if (this.interruptedAtPrompt || !this.interactive) {
			readline.close();
			return;
		}
		this.interruptedAtPrompt = true;
		readline.write(null, { ctrl: true, name: "u" });
		this.terminal.stdout.write(this.styles.dim("\n(Press Ctrl-C again, Ctrl-D or type /exit to leave)\n"));
		readline.prompt();
	}

	/** One turn; true when the call failed. */
	private async answer(text: string): Promise<boolean> {
		const userMessage: Message = { role: "user", content: text, timestamp: Date.now() };
		this.messages.push(userMessage);
		await this.transcript?.appendMessage(userMessage);
		const controller = new AbortController();
		this.answering = controller;
		// Piped input: Ctrl-C arrives as a signal rather than a key.
		const stopListening = this.interactive ? () => {} : this.terminal.onInterrupt(() => controller.abort());
		let message: AssistantMessage;
		try {
			const events = streamSimple(
				this.options.model,
				{ systemPrompt: this.options.systemPrompt, messages: this.messages },
				{
					...this.options.credentials,
					maxTokens: this.options.maxTokens,
					reasoning: this.options.reasoning,
					signal: controller.signal,
					sessionId: this.transcript?.sessionId,
				},
			);
			message = await writeAnswer(events, this.options.model, this.terminal, { json: false });
		} finally {
			this.answering = undefined;
			stopListening();
		}
		// Failed and stopped answers stay in the transcript; providers leave them out of the next request.
		this.messages.push(message);
		await this.transcript?.appendMessage(message);
		return message.stopReason === "error";
	}

	private async runSlashCommand(text: string): Promise<"exit" | undefined> {
		const [name, ...rest] = text.split(/\s+/);
		const argument = rest.join(" ");
		const say = (line: string) => this.terminal.stdout.write(`${line}\n`);
		switch (name) {
			case "/exit":
			case "/quit":
				return "exit";
			case "/help":
				say(help.slice(help.indexOf("  /model"), help.indexOf("\n\nCtrl-C")));
				return;
			case "/model": {
				if (argument === "") {
					say(`Model: ${this.label}`);
					return;
				}
				try {
					const flags = { ...this.options.modelFlags, model: argument };
					const model = selectModel("chat", flags, this.terminal.env);
					const credentials = await resolveCallCredentials(model, this.options.keyFlag, this.terminal.env);
					const reasoning = this.options.reasoning && selectReasoning("chat", model, this.options.reasoning);
					this.options = {
						...this.options,
						model,
						modelFlags: flags,
						credentials,
						reasoning: reasoning ? reasoning.level : undefined,
					};
					if (reasoning?.note) say(reasoning.note);
					say(`Model: ${this.label}`);
					await this.transcript?.saveSettings(this.settings());
				} catch (error) {
					say(this.styles.red(error instanceof Error ? error.message : String(error)));
				}
				return;
			}
			case "/reasoning": {
				if (argument === "") {
					say(`Reasoning: ${this.options.reasoning ?? "off"}`);
					return;
				}
				try {
					const reasoning = selectReasoning("chat", this.options.model, argument);
					this.options = { ...this.options, reasoning: reasoning.level };
					if (reasoning.note) say(reasoning.note);
					say(`Reasoning: ${reasoning.level ?? "off"}`);
					await this.transcript?.saveSettings(this.settings());
				} catch (error) {
					say(this.styles.red(error instanceof Error ? error.message : String(error)));
				}
				return;
			}
			case "/cost":
				say(this.costSummary());
				return;
			case "/clear":
				await this.transcript?.close();
				this.transcript = undefined;
				this.messages.length = 0;
				say("Started a new conversation.");
				return;
			default:
				say(this.styles.red(`Unknown command ${name}. /help lists the commands.`));
				return;
		}
	}

	private costSummary(): string {
		const answers = this.messages.filter((message): message is AssistantMessage => message.role === "assistant");
		if (answers.length === 0) return "No answers yet: $0";
		const total = answers.reduce(
			(sum, message) => ({
				input: sum.input + message.usage.input,
				output: sum.output + message.usage.output,
				cacheRead: sum.cacheRead + message.usage.cacheRead,
				cacheWrite: sum.cacheWrite + message.usage.cacheWrite,
				totalTokens: sum.totalTokens + message.usage.totalTokens,
				cost: { ...sum.cost, total: sum.cost.total + message.usage.cost.total },
			}),
			{
				input: 0,
				output: 0,
				cacheRead: 0,
				cacheWrite: 0,
				totalTokens: 0,
				cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
			},
		);
		const count = `${answers.length} answer${answers.length === 1 ? "" : "s"}`;
		return `${count}: ${formatUsage(total)} (${formatCost(total.cost.total)} in all)`;
	}
}

/** Lines from readline as an awaitable queue; undefined once input ends (Ctrl-D, end of the pipe, close). */
function lineQueue(readline: Interface): { next(): Promise<string | undefined> } {
	const waiting: ((line: string | undefined) => void)[] = [];
	const buffered: string[] = [];
	let closed = false;
	readline.on("line", (line) => {
		const resolve = waiting.shift();
		if (resolve) resolve(line);
		else buffered.push(line);
	});
	readline.on("close", () => {
		closed = true;
		for (const resolve of waiting.splice(0)) resolve(undefined);
	});
	return {
		next() {
			if (buffered.length > 0) return Promise.resolve(buffered.shift());
			if (closed) return Promise.resolve(undefined);
			return new Promise((resolve) => waiting.push(resolve));
		},
	};
}
