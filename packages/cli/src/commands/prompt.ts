// `keel prompt` (also `keel "text"`): one question, the answer streamed to stdout. Piped stdin and
// the text argument combine as in simonw's llm: the piped text first, then the argument (here
// after a blank line). The conversation runs on @keel/agent-core's Agent and is logged as a
// session, so `-c` continues it and `keel logs` finds it.
import { createInterface } from "node:readline";
import type { ToolApprovalRequest } from "@keel/agent-core";
import { Session, type TranscriptStore } from "@keel/agent-core/session";
import { type Api, completeObject, type Model, StructuredOutputError, type UserContent } from "@keel/ai";
import { formatUsage } from "../answer-output.js";
import {
	buildSetup,
	CALL_OPTIONS,
	CALL_OPTIONS_HELP,
	logStore,
	openPrivateSessionStore,
	saveTemplateFromFlags,
} from "../call-setup.js";
import {
	type Command,
	EXIT_FAILURE,
	EXIT_INTERRUPTED,
	EXIT_SUCCESS,
	parseCommandArguments,
	UsageError,
} from "../command.js";
import { Conversation, type ConversationSetup, titleFrom } from "../conversation/conversation.js";
import { readAttachments } from "../prompt-input/attachments.js";
import { joinOptionPairs } from "../prompt-input/model-options.js";
import { parseSchemaSpec } from "../prompt-input/schema-spec.js";
import { type ChatSettings, createSessionId, readChatTranscript } from "../sessions/chat-transcript.js";
import { colorEnabled, createStyles, readAll, type Terminal } from "../terminal.js";
import { confirmationQuestion, isYes, refuseWithoutTerminal } from "../tool-confirmation.js";

const help = `Usage: keel [prompt] [text] [options]

Sends one prompt and streams the answer to stdout. \`keel "text"\` is the same as \`keel prompt
"text"\`, and \`cat file | keel\` prompts with the file. Text piped on stdin comes first, then the
text argument, so \`cat file | keel "summarise this"\` asks about the file. On a terminal a spinner
waits for the first token and the model's thinking is shown dimmed; piped, stdout holds the answer
alone. The token usage and cost go to stderr. Every prompt and answer is logged (keel logs).

Options:
${CALL_OPTIONS_HELP}
      --save name          save the system prompt, model, options and tools given as a template
                           and exit, without calling the model
  -c, --continue           continue the last conversation (its model and settings too)
      --cid id             continue the conversation with this id (keel logs shows them)
      --schema spec        answer with JSON matching a schema: a JSON Schema file, inline JSON,
                           or fields such as "name str, age int" (str, int, float, bool)
  -a, --attach path        attach a file: an image (PNG, JPEG, GIF, WebP), a PDF, a text file or
                           audio (WAV, MP3, FLAC, OGG, M4A), checked against the model's input;
                           a path, or - for stdin; repeatable
      --allow-urls         let -a take an http(s) URL, which keel downloads
      --json               print every stream event as one JSON line (no partial message)
  -h, --help               show this help

Exit codes: 0 answered, 1 the call failed (the error is on stderr), 2 a wrong command line,
130 stopped with Ctrl-C.

Examples:
  keel "Ten names for a pet pelican"
  git diff | keel -m openai/gpt-4o-mini -s "Write a commit message"
  keel -c "And five more"
  keel --schema "name str, age int" "Invent a person"
  keel -a photo.jpg -m anthropic/claude-sonnet-4-6 "What is in this picture?"
  keel -T calculator "What is 1234 * 5678?"
  keel --mcp "npx -y @modelcontextprotocol/server-everything" "Add 2 and 3 with the add tool"
  keel -m qwen3:8b --base-url http://127.0.0.1:11434/v1 "Hello"
  keel prompt -m openai/o3 --reasoning high "Is 1001 prime?" --json | jq -c .type`;

const PROMPT_OPTIONS = {
	...CALL_OPTIONS,
	json: { type: "boolean" },
	continue: { type: "boolean", short: "c" },
	cid: { type: "string" },
	schema: { type: "string" },
	attach: { type: "string", short: "a", multiple: true },
	"allow-urls": { type: "boolean" },
} as const;

export const promptCommand: Command = {
	name: "prompt",
	summary: "send one prompt and stream the answer (the default command; reads piped stdin)",
	help,
	async run(args, terminal) {
		const { values, positionals } = parseCommandArguments("prompt", joinOptionPairs("prompt", args), PROMPT_OPTIONS);
		if (values.save !== undefined) return saveTemplateFromFlags("prompt", values, terminal);
		if (values.continue && values.cid !== undefined) {
			throw new UsageError("give -c (the last conversation) or --cid <id>, not both", "prompt");
		}
		const continuing = values.continue === true || values.cid !== undefined;
		if (continuing && values.schema !== undefined) {
			throw new UsageError("--schema starts a conversation of its own: leave out -c/--cid", "prompt");
		}
		const store = continuing ? openPrivateSessionStore(terminal.env) : logStore(values, terminal.env);
		const resumed = continuing ? await findConversation(store as TranscriptStore, values.cid) : undefined;
		const { setup, notes, mcp } = await buildSetup("prompt", values, terminal, {
			json: values.json === true,
			saved: resumed?.settings,
		});
		try {
			const attachSpecs = values.attach ?? [];
			const stdinIsAttachment = attachSpecs.includes("-");
			const attachments = await readAttachments("prompt", setup.model, attachSpecs, {
				stdin: terminal.stdin,
				allowUrls: values["allow-urls"] === true,
			});
			const text = await promptText(positionals, terminal, !stdinIsAttachment);
			for (const note of notes) terminal.stderr.write(`${note}\n`);
			if (values.schema !== undefined) {
				const schema = parseSchemaSpec("prompt", values.schema);
				return await answerWithSchema(terminal, setup, store, text, attachments, schema);
			}

			const conversation = new Conversation(terminal, setup, store, (request) => confirmAtTerminal(terminal, request));
			if (resumed) await conversation.resume(resumed.sessionId);
			const stopListening = terminal.onInterrupt(() => conversation.abort());
			try {
				const message = await conversation.send(text, attachments);
				if (message?.stopReason === "aborted") return EXIT_INTERRUPTED;
				return message === undefined || message.stopReason === "error" ? EXIT_FAILURE : EXIT_SUCCESS;
			} finally {
				stopListening();
				await conversation.close();
			}
		} finally {
			await mcp.close();
		}
	},
};

/** The conversation -c (the most recent) or --cid names, with its stored settings. */
async function findConversation(
	store: TranscriptStore,
	id: string | undefined,
): Promise<{ sessionId: string; settings?: ChatSettings }> {
	const sessionId = id ?? (await store.list())[0]?.sessionId;
	if (sessionId === undefined) throw new UsageError("there is no logged conversation to continue yet", "prompt");
	if (!(await store.exists(sessionId))) {
		throw new UsageError(`no conversation "${sessionId}" (keel logs lists them)`, "prompt");
	}
	const transcript = await readChatTranscript(store, sessionId);
	return { sessionId, settings: transcript.settings };
}

async function promptText(positionals: string[], terminal: Terminal, readStdin: boolean): Promise<string> {
	const argument = positionals.join(" ");
	const piped = !readStdin || terminal.stdin.isTTY === true ? "" : await readAll(terminal.stdin);
	const parts = [piped.replace(/\s+$/, ""), argument].filter((part) => part.trim() !== "");
	if (parts.length === 0) {
		throw new UsageError('no prompt: give the text as an argument (keel "…") or pipe it on stdin', "prompt");
	}
	return parts.join("\n\n");
}

/** Asks on the terminal; with stdin piped there is nobody to ask, so the call is refused. */
async function confirmAtTerminal(terminal: Terminal, request: ToolApprovalRequest): Promise<boolean> {
	if (terminal.stdin.isTTY !== true || terminal.stderr.isTTY !== true) return refuseWithoutTerminal(terminal, request);
	const readline = createInterface({ input: terminal.stdin, output: terminal.stderr as NodeJS.WritableStream });
	try {
		return await new Promise<boolean>((resolve) => {
			readline.on("SIGINT", () => resolve(false));
			readline.on("close", () => resolve(false));
			readline.question(confirmationQuestion(request), (answer) => resolve(isYes(answer)));
		});
	} finally {
		readline.close();
	}
}

/** --schema: one structured answer through completeObject, printed as JSON, and logged. */
async function answerWithSchema(
	terminal: Terminal,
	setup: ConversationSetup,
	store: TranscriptStore | undefined,
	text: string,
	attachments: UserContent[],
	schema: Parameters<typeof completeObject>[2]["schema"],
): Promise<number> {
	if (setup.tools.length > 0)
		throw new UsageError("--schema answers with JSON, without tools: leave out -T, --mcp and --mcp-url", "prompt");
	const styles = createStyles(colorEnabled(terminal.stderr, terminal.env));
	const userMessage = {
		role: "user" as const,
		content: attachments.length > 0 ? [{ type: "text" as const, text }, ...attachments] : text,
		timestamp: Date.now(),
	};
	const controller = new AbortController();
	const stopListening = terminal.onInterrupt(() => controller.abort());
	const started = performance.now();
	try {
		const result = await completeObject(
			setup.model as Model<Api>,
			{ systemPrompt: setup.systemPrompt, messages: [userMessage] },
			{
				schema,
				...setup.callOptions,
				...setup.credentials,
				reasoning: setup.reasoning,
				signal: controller.signal,
			},
		);
		terminal.stdout.write(`${JSON.stringify(result.object, null, 2)}\n`);
		terminal.stderr.write(`${styles.dim(formatUsage(result.usage))}\n`);
		if (store) {
			const answer = { ...result.message, durationMs: Math.round(performance.now() - started) };
			const session = await Session.create(store, {
				sessionId: createSessionId(),
				title: titleFrom(text),
				state: { custom: { chat: { ...schemaSettings(setup), schema } } },
			});
			try {
				await session.append(userMessage);
				await session.append(answer);
			} finally {
				await session.close();
			}
		}
		return EXIT_SUCCESS;
	} catch (error) {
		if (controller.signal.aborted) {
			terminal.stderr.write(`${styles.yellow("Aborted.")}\n`);
			return EXIT_INTERRUPTED;
		}
		const message = error instanceof StructuredOutputError || error instanceof Error ? error.message : String(error);
		terminal.stderr.write(`${styles.red("Error:")} ${message}\n`);
		return EXIT_FAILURE;
	} finally {
		stopListening();
	}
}

function schemaSettings(setup: ConversationSetup): ChatSettings {
	const { model } = setup;
	const custom = model.provider === "custom";
	return {
		model: custom ? model.id : `${model.provider}/${model.id}`,
		baseUrl: custom ? model.baseUrl : undefined,
		api: custom ? model.api : undefined,
		systemPrompt: setup.systemPrompt,
	};
}
