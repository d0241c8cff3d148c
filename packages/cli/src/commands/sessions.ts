// `keel sessions`: the stored chat sessions: list them, show one, export one as Markdown or JSON.
import type { Message } from "@keel/ai";
import { type Command, EXIT_SUCCESS, parseCommandArguments, UsageError } from "../command.js";
import { readChatTranscript } from "../sessions/chat-transcript.js";
import { sessionsDirectory } from "../sessions/keel-home.js";
import { openSessionStore } from "../sessions/session-store.js";
import { formatTable } from "../table.js";
import { colorEnabled, createStyles, type Terminal } from "../terminal.js";

const help = `Usage: keel sessions [list | show <id> | export <id> --format md|json]

The conversations \`keel\` and \`keel chat\` stored, newest first (\`keel logs\` shows them as
prompts and answers). They live in $KEEL_HOME/sessions
(default ~/.keel/sessions), one JSONL file per session.

Subcommands:
  list                 id, last update, size and title of every session (the default)
  show <id>            the conversation, as text
  export <id>          the conversation as Markdown (--format md, the default) or JSON
                       (--format json: the session id, the chat settings and the messages)

Options:
      --format md|json  for export
      --json            for list: a JSON array
  -h, --help            show this help

Examples:
  keel sessions
  keel sessions show 2026-11-22T23-45-01-k3j9x2
  keel sessions export 2026-11-22T23-45-01-k3j9x2 --format md > chat.md
  keel chat --resume 2026-11-22T23-45-01-k3j9x2`;

export const sessionsCommand: Command = {
	name: "sessions",
	summary: "list, show and export the stored conversations",
	help,
	async run(args, terminal) {
		const { values, positionals } = parseCommandArguments("sessions", args, {
			format: { type: "string" },
			json: { type: "boolean" },
		});
		const [subcommand = "list", sessionId, ...extra] = positionals;
		if (extra.length > 0) throw new UsageError(`unexpected arguments: ${extra.join(" ")}`, "sessions");
		const store = openSessionStore(terminal.env);
		if (subcommand === "list") {
			const sessions = await store.list();
			if (values.json) {
				terminal.stdout.write(`${JSON.stringify(sessions, null, 2)}\n`);
			} else if (sessions.length === 0) {
				terminal.stderr.write(
					`No sessions yet in ${sessionsDirectory(terminal.env)}. Start one with keel chat or keel "…".\n`,
				);
			} else {
				const table = formatTable(
					[
						{ header: "id", value: (session) => session.sessionId },
						{ header: "updated", value: (session) => new Date(session.updatedAt).toLocaleString("sv-SE") },
						{ header: "size", value: (session) => formatBytes(session.sizeBytes), align: "right" },
						{ header: "title", value: (session) => session.title ?? "" },
					],
					sessions,
				);
				terminal.stdout.write(`${table}\n`);
			}
			return EXIT_SUCCESS;
		}
		if (subcommand !== "show" && subcommand !== "export") {
			throw new UsageError(`unknown subcommand "${subcommand}": expected list, show or export`, "sessions");
		}
		if (sessionId === undefined)
			throw new UsageError(`${subcommand} needs a session id (keel sessions list)`, "sessions");
		if (!(await store.exists(sessionId))) {
			throw new UsageError(`no session "${sessionId}" (keel sessions list shows them)`, "sessions");
		}
		const transcript = await readChatTranscript(store, sessionId);
		if (subcommand === "show") {
			terminal.stdout.write(formatConversationText(transcript.messages, terminal));
			return EXIT_SUCCESS;
		}
		const format = values.format ?? "md";
		if (format === "json") {
			terminal.stdout.write(`${JSON.stringify(transcript, null, 2)}\n`);
		} else if (format === "md") {
			terminal.stdout.write(formatConversationMarkdown(sessionId, transcript.messages));
		} else {
			throw new UsageError(`--format expects md or json, got "${format}"`, "sessions");
		}
		return EXIT_SUCCESS;
	},
};

function formatBytes(bytes: number): string {
	return bytes < 1024 ? `${bytes} B` : `${Math.round(bytes / 102.4) / 10} kB`;
}

function textOf(message: Message): string {
	if (typeof message.content === "string") return message.content;
	return message.content
		.map((block) => {
			if (block.type === "text") return block.text;
			if (block.type === "image") return "[image]";
			if (block.type === "file") return `[file ${block.filename ?? block.mimeType}]`;
			return block.type === "audio" ? "[audio]" : "";
		})
		.filter((text) => text !== "")
		.join("\n");
}

function speaker(message: Message): string {
	if (message.role === "assistant") return `assistant (${message.provider}/${message.model})`;
	return message.role;
}

function stopNote(message: Message): string {
	if (message.role !== "assistant") return "";
	if (message.stopReason === "error") return `[error: ${message.errorMessage ?? "the call failed"}]`;
	if (message.stopReason === "aborted") return "[stopped]";
	return "";
}

function formatConversationText(messages: Message[], terminal: Terminal): string {
	const styles = createStyles(colorEnabled(terminal.stdout, terminal.env));
	return messages
		.map((message) => {
			const note = stopNote(message);
			const body = [textOf(message), note].filter((part) => part !== "").join("\n");
			return `${styles.bold(`${speaker(message)}:`)}\n${body}\n`;
		})
		.join("\n");
}

export function formatConversationMarkdown(sessionId: string, messages: Message[]): string {
	const sections = messages.map((message) => {
		const note = stopNote(message);
		const body = [textOf(message), note ? `_${note}_` : ""].filter((part) => part !== "").join("\n\n");
		return `## ${speaker(message)}\n\n${body}\n`;
	});
	return `# Session ${sessionId}\n\n${sections.join("\n")}`;
}
