// `keel chat`: a conversation in the terminal, run by @keel/agent-core's Agent and stored as a
// session so it can be resumed. Ctrl-C while the model answers stops that answer (the Agent
// aborts the request) and returns to the prompt; at an empty prompt it says how to leave, and a
// second Ctrl-C (or Ctrl-D, or /exit) leaves. A line typed while the model answers interrupts the
// answer and is answered next (conversation/typing-during-answer.ts keeps the screen tidy).
import { createInterface, type Interface } from "node:readline";
import type { ToolApprovalRequest } from "@keel/agent-core";
import type { AssistantMessage } from "@keel/ai";
import { formatCost, formatUsage } from "../answer-output.js";
import { resolveCallCredentials } from "../api-key.js";
import { buildSetup, CALL_OPTIONS, CALL_OPTIONS_HELP, logStore, openPrivateSessionStore } from "../call-setup.js";
import { type Command, EXIT_FAILURE, EXIT_SUCCESS, parseCommandArguments, UsageError } from "../command.js";
import { Conversation } from "../conversation/conversation.js";
import { TypingDuringAnswer } from "../conversation/typing-during-answer.js";
import { selectModel, selectReasoning } from "../model-selection.js";
import { joinOptionPairs } from "../prompt-input/model-options.js";
import { readChatTranscript } from "../sessions/chat-transcript.js";
import { colorEnabled, createStyles, type Styles, type Terminal } from "../terminal.js";
import { confirmationQuestion, isYes, refuseWithoutTerminal } from "../tool-confirmation.js";

const help = `Usage: keel chat [options]

A conversation with a model. Every turn is stored as a session (see \`keel sessions\`), so
\`keel chat --resume\` continues the last one. Type a message and press Enter; lines starting
with / are commands:

  /model [provider/id]   show or switch the model
  /reasoning [level]     show or set the reasoning level (off, minimal, low, medium, high, xhigh, max)
  /cost                  tokens and cost of this conversation so far
  /clear                 start a new conversation (a new session)
  /help                  list these commands
  /exit                  leave (Ctrl-D too)

While an answer is written you can type: the answer pauses on screen, and Enter sends the line
and cuts the answer off (it ends with "(interrupted)"); the model answers the line next. A /command
typed then runs once the answer has ended.

Ctrl-C stops the answer being written and keeps the chat open; at an empty prompt, press it twice
to leave. With stdin piped, each line is one message, sent once the answer before it has ended.

Options:
${CALL_OPTIONS_HELP}
      --resume [id]        continue a stored session: the given one, or the most recent
  -h, --help               show this help

Sessions are stored in $KEEL_HOME/sessions (default ~/.keel/sessions).

Examples:
  keel chat -m anthropic/claude-sonnet-4-6
  keel chat -m qwen3:8b --base-url http://127.0.0.1:11434/v1
  keel chat -t reviewer -T calculator
  keel chat --resume
  keel chat --resume 2026-11-22T23-45-01-k3j9x2`;

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
		const { values, positionals } = parseCommandArguments("chat", joinOptionPairs("chat", normaliseResumeFlag(args)), {
			...CALL_OPTIONS,
			resume: { type: "string" },
		});
		if (positionals.length > 0) {
			throw new UsageError(
				`chat takes no text argument (got "${positionals.join(" ")}"); type it at the prompt`,
				"chat",
			);
		}
		if (values.save !== undefined)
			throw new UsageError("--save belongs to keel prompt: keel --save <name> -s …", "chat");
		const resuming = values.resume !== undefined;
		const store = resuming ? openPrivateSessionStore(terminal.env) : logStore(values, terminal.env);
		let resumed: Awaited<ReturnType<typeof readChatTranscript>> | undefined;
		if (resuming && store) {
			const sessionId = values.resume === "" ? (await store.list())[0]?.sessionId : values.resume;
			if (sessionId === undefined) throw new UsageError("there is no stored session to resume", "chat");
			if (!(await store.exists(sessionId as string))) {
				throw new UsageError(`no session "${sessionId}" (keel sessions list shows them)`, "chat");
			}
			resumed = await readChatTranscript(store, sessionId as string);
		}
		const { setup, notes, mcp } = await buildSetup("chat", values, terminal, {
			json: false,
			saved: resumed?.settings,
		});
		try {
			for (const note of notes) terminal.stderr.write(`${note}\n`);
			const chat = new ChatLoop(terminal, values.key);
			const conversation = new Conversation(terminal, setup, store, (request) => chat.confirm(request));
			if (resumed) await conversation.resume(resumed.sessionId);
			return await chat.run(conversation);
		} finally {
			await mcp.close();
		}
	},
};

class ChatLoop {
	private readonly styles: Styles;
	private readonly interactive: boolean;
	private conversation!: Conversation;
	private readline!: Interface;
	private lines!: LineQueue;
	private typing: TypingDuringAnswer | undefined;
	private interruptedAtPrompt = false;
	private confirming = false;
	/** A line that was being typed when a tool call's question came: back at the next prompt. */
	private typedBeforeQuestion = "";

	constructor(
		private readonly terminal: Terminal,
		private readonly keyFlag: string | undefined,
	) {
		this.styles = createStyles(colorEnabled(terminal.stdout, terminal.env));
		this.interactive = terminal.stdin.isTTY === true && terminal.stdout.isTTY === true;
	}

	private get label(): string {
		return `${this.conversation.model.provider}/${this.conversation.model.id}`;
	}

	async run(conversation: Conversation): Promise<number> {
		this.conversation = conversation;
		const { terminal } = this;
		const readline = createInterface({
			input: terminal.stdin,
			output: this.interactive ? (terminal.stdout as NodeJS.WritableStream) : undefined,
			terminal: this.interactive,
			prompt: this.styles.cyan("> "),
		});
		this.readline = readline;
		this.lines = new LineQueue(readline, (line) => {
			if (this.typing?.takeLine() !== true) return false;
			this.lineDuringAnswer(line);
			return true;
		});
		if (this.interactive) {
			this.typing = new TypingDuringAnswer(
				readline,
				terminal.stdin,
				terminal.stdout,
				conversation,
				() => conversation.answering && !this.confirming,
			);
		}
		readline.on("SIGINT", () => this.onInterrupt());
		if (this.interactive) {
			const resumedNote = conversation.sessionId ? `, resuming session ${conversation.sessionId}` : "";
			terminal.stdout.write(
				this.styles.dim(`Chatting with ${this.label}${resumedNote}. /help lists commands, /exit or Ctrl-D leaves.\n`),
			);
		}
		let exitCode = EXIT_SUCCESS;
		let sessionId: string | undefined;
		let typed = "";
		try {
			for (;;) {
				// A line typed during the answer that waits its turn is shown as it runs, not after a prompt.
				if (this.interactive && !this.lines.peek()?.typedDuringAnswer) {
					readline.prompt(true);
					// What was being typed when the answer ended stays, ready to be finished.
					if (typed !== "") readline.write(typed);
					typed = "";
				}
				const next = await this.lines.next();
				if (next === undefined) break;
				const { line, typedDuringAnswer } = next;
				// A line typed during the answer was taken off the screen; it is shown as it is run.
				if (typedDuringAnswer) terminal.stdout.write(`${this.styles.cyan("> ")}${line}\n`);
				this.interruptedAtPrompt = false;
				const text = line.trim();
				if (text === "") continue;
				if (text.startsWith("/")) {
					if ((await this.runSlashCommand(text)) === "exit") break;
					continue;
				}
				// Piped input: Ctrl-C arrives as a signal rather than a key, and stops the answer being
				// written; between answers it ends keel as usual.
				const stopListening = this.interactive ? () => {} : terminal.onInterrupt(() => conversation.abort());
				const message = await conversation.send(text).finally(stopListening);
				typed = this.typing?.finish() || this.typedBeforeQuestion;
				this.typedBeforeQuestion = "";
				if ((message === undefined || message.stopReason === "error") && !this.interactive) exitCode = EXIT_FAILURE;
			}
		} finally {
			this.typing?.dispose();
			readline.close();
			sessionId = conversation.sessionId;
			await conversation.close();
		}
		if (this.interactive) terminal.stdout.write("\n");
		if (sessionId) terminal.stderr.write(this.styles.dim(`Session saved: ${sessionId}\n`));
		return exitCode;
	}

	/** Asks at the chat's own prompt; piped, there is nobody to ask and the call is refused. */
	async confirm(request: ToolApprovalRequest): Promise<boolean> {
		if (!this.interactive) return refuseWithoutTerminal(this.terminal, request);
		// A run paused for approval while a line was being typed: the question comes first, and the
		// line waits for the next prompt (it is not the answer to the question).
		this.typedBeforeQuestion = this.typing?.finish() || this.typedBeforeQuestion;
		this.terminal.stdout.write(confirmationQuestion(request));
		this.confirming = true;
		try {
			return isYes((await this.lines.next())?.line);
		} finally {
			this.confirming = false;
		}
	}

	private onInterrupt(): void {
		if (this.confirming) {
			// Ctrl-C at the question answers no: an empty line ends the question's wait for a line.
			this.readline.write(null, { ctrl: true, name: "u" });
			this.readline.write("\n");
			return;
		}
		if (this.conversation.answering) {
			// A line being typed is dropped with the answer it would have interrupted.
			this.typing?.finish();
			this.conversation.abort();
			return;
		}
		if (this.interruptedAtPrompt || !this.interactive) {
			this.readline.close();
			return;
		}
		this.interruptedAtPrompt = true;
		this.readline.write(null, { ctrl: true, name: "u" });
		this.terminal.stdout.write(this.styles.dim("\n(Press Ctrl-C again, Ctrl-D or type /exit to leave)\n"));
		this.readline.prompt();
	}

	/**
	 * A line entered while the answer was written (interactive only). Text interrupts the answer and
	 * is answered next; a /command does not interrupt it and runs once it has ended.
	 */
	private lineDuringAnswer(line: string): void {
		const text = line.trim();
		// An empty line lets the answer go on.
		if (text === "") return;
		// A /command waits its turn; so does text when the answer has just ended (it is the next message).
		if (text.startsWith("/") || !this.conversation.steer(text)) this.lines.push(line, true);
	}

	private async runSlashCommand(text: string): Promise<"exit" | undefined> {
		const [name, ...rest] = text.split(/\s+/);
		const argument = rest.join(" ");
		const say = (line: string) => this.terminal.stdout.write(`${line}\n`);
		const { conversation } = this;
		switch (name) {
			case "/exit":
			case "/quit":
				return "exit";
			case "/help":
				say(help.slice(help.indexOf("  /model"), help.indexOf("\n\nOptions:")));
				return;
			case "/model": {
				if (argument === "") {
					say(`Model: ${this.label}`);
					return;
				}
				try {
					const modelFlags = { ...conversation.modelFlags, model: argument };
					const model = selectModel("chat", modelFlags, this.terminal.env);
					const credentials = await resolveCallCredentials(model, this.keyFlag, this.terminal.env);
					const reasoning = conversation.reasoning && selectReasoning("chat", model, conversation.reasoning);
					await conversation.change({
						model,
						modelFlags,
						credentials,
						reasoning: reasoning ? reasoning.level : undefined,
					});
					if (reasoning?.note) say(reasoning.note);
					say(`Model: ${this.label}`);
				} catch (error) {
					say(this.styles.red(error instanceof Error ? error.message : String(error)));
				}
				return;
			}
			case "/reasoning": {
				if (argument === "") {
					say(`Reasoning: ${conversation.reasoning ?? "off"}`);
					return;
				}
				try {
					const reasoning = selectReasoning("chat", conversation.model, argument);
					await conversation.change({ reasoning: reasoning.level });
					if (reasoning.note) say(reasoning.note);
					say(`Reasoning: ${reasoning.level ?? "off"}`);
				} catch (error) {
					say(this.styles.red(error instanceof Error ? error.message : String(error)));
				}
				return;
			}
			case "/cost":
				say(this.costSummary());
				return;
			case "/clear":
				await conversation.clear();
				say("Started a new conversation.");
				return;
			default:
				say(this.styles.red(`Unknown command ${name}. /help lists the commands.`));
				return;
		}
	}

	private costSummary(): string {
		const answers = this.conversation.messages.filter(
			(message): message is AssistantMessage => message.role === "assistant",
		);
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

/** A line from readline; `typedDuringAnswer` when it was entered while an answer was written. */
interface QueuedLine {
	line: string;
	typedDuringAnswer: boolean;
}

/**
 * Lines from readline as an awaitable queue; undefined once input ends (Ctrl-D, end of the pipe,
 * close). `intercept` sees each line first and returns true to take it (a line typed during an answer).
 */
class LineQueue {
	private readonly waiting: ((line: QueuedLine | undefined) => void)[] = [];
	private readonly buffered: QueuedLine[] = [];
	private closed = false;

	constructor(readline: Interface, intercept: (line: string) => boolean) {
		readline.on("line", (line) => {
			if (!intercept(line)) this.push(line, false);
		});
		readline.on("close", () => {
			this.closed = true;
			for (const resolve of this.waiting.splice(0)) resolve(undefined);
		});
	}

	push(line: string, typedDuringAnswer: boolean): void {
		const item = { line, typedDuringAnswer };
		const resolve = this.waiting.shift();
		if (resolve) resolve(item);
		else this.buffered.push(item);
	}

	peek(): QueuedLine | undefined {
		return this.buffered[0];
	}

	next(): Promise<QueuedLine | undefined> {
		if (this.buffered.length > 0) return Promise.resolve(this.buffered.shift());
		if (this.closed) return Promise.resolve(undefined);
		return new Promise((resolve) => this.waiting.push(resolve));
	}
}
