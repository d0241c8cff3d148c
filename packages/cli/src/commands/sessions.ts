// `keel sessions`: the stored chat sessions: list them, show one, export one (Markdown, JSON, or a
// transcript file in Keel's, pi's or Claude Code's format), import a pi or Claude Code transcript.
import { readdir, readFile, writeFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { INTERRUPTED_BY_STEERING_TEXT } from "@keel/agent-core";
import {
	type ClaudeCodeSidechainSource,
	exportSession,
	importTranscript,
	type SessionExportFormat,
	TranscriptInterchangeError,
} from "@keel/agent-core/session";
import type { Message } from "@keel/ai";
import { type Command, EXIT_SUCCESS, parseCommandArguments, UsageError } from "../command.js";
import { readChatTranscript } from "../sessions/chat-transcript.js";
import { sessionsDirectory } from "../sessions/keel-home.js";
import { openSessionStore } from "../sessions/session-store.js";
import { formatTable } from "../table.js";
import { colorEnabled, createStyles, type Terminal } from "../terminal.js";

const help = `Usage: keel sessions [list | show <id> | export <id> [--format …] [-o file] | import <file>]

The conversations \`keel\` and \`keel chat\` stored, newest first (\`keel logs\` shows them as
prompts and answers). They live in $KEEL_HOME/sessions
(default ~/.keel/sessions), one JSONL file per session.

Subcommands:
  list                 id, last update, size and title of every session (the default)
  show <id>            the conversation, as text
  export <id>          the conversation as Markdown (--format md, the default) or JSON
                       (--format json: the session id, the chat settings and the messages),
                       or as a transcript file: --format keel (Keel's JSONL), pi (a pi
                       session file, every branch) or claude-code (the current branch)
  import <file>        a pi session file or a Claude Code transcript, as a new session (its
                       sub-agents, <file without .jsonl>/subagents/*.jsonl, as sidechains);
                       the file is only read

Options:
      --format <format>   export: md, json, keel, pi or claude-code;
                          import: auto (the default), pi or claude-code
  -o, --output <file>     export: write to a new file (created 0600) instead of stdout
      --session-id <id>   import: the new session's id (default: the transcript's own)
      --json              list: a JSON array
  -h, --help              show this help

Examples:
  keel sessions
  keel sessions show 2026-11-22T23-45-01-k3j9x2
  keel sessions export 2026-11-22T23-45-01-k3j9x2 --format md > chat.md
  keel sessions export 2026-11-22T23-45-01-k3j9x2 --format pi -o session.jsonl
  keel sessions import ~/.claude/projects/-home-me-app/0b7c….jsonl
  keel chat --resume 2026-11-22T23-45-01-k3j9x2`;

export const sessionsCommand: Command = {
	name: "sessions",
	summary: "list, show and export the stored conversations",
	help,
	async run(args, terminal) {
		const { values, positionals } = parseCommandArguments("sessions", args, {
			format: { type: "string" },
			json: { type: "boolean" },
			output: { type: "string", short: "o" },
			"session-id": { type: "string" },
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
		if (subcommand === "import") {
			if (sessionId === undefined) throw new UsageError("import needs a transcript file", "sessions");
			return importFile(sessionId, values.format, values["session-id"], terminal, store);
		}
		if (subcommand !== "show" && subcommand !== "export") {
			throw new UsageError(`unknown subcommand "${subcommand}": expected list, show, export or import`, "sessions");
		}
		if (sessionId === undefined)
			throw new UsageError(`${subcommand} needs a session id (keel sessions list)`, "sessions");
		if (!(await store.exists(sessionId))) {
			throw new UsageError(`no session "${sessionId}" (keel sessions list shows them)`, "sessions");
		}
		const format = values.format ?? "md";
		if (subcommand === "export" && TRANSCRIPT_FORMATS.has(format)) {
			const text = await exportSession(store, sessionId, format as SessionExportFormat);
			await writeOutput(text, values.output, terminal);
			return EXIT_SUCCESS;
		}
		const transcript = await readChatTranscript(store, sessionId);
		if (subcommand === "show") {
			terminal.stdout.write(formatConversationText(transcript.messages, terminal));
			return EXIT_SUCCESS;
		}
		if (format === "json") {
			await writeOutput(`${JSON.stringify(transcript, null, 2)}\n`, values.output, terminal);
		} else if (format === "md") {
			await writeOutput(formatConversationMarkdown(sessionId, transcript.messages), values.output, terminal);
		} else {
			throw new UsageError(`--format expects md, json, keel, pi or claude-code, got "${format}"`, "sessions");
		}
		return EXIT_SUCCESS;
	},
};

const TRANSCRIPT_FORMATS = new Set(["keel", "pi", "claude-code"]);

/** Writes an export to stdout, or to a new file: never over an existing one, readable by the owner only. */
async function writeOutput(text: string, output: string | undefined, terminal: Terminal): Promise<void> {
	if (output === undefined) {
		terminal.stdout.write(text);
		return;
	}
	try {
		await writeFile(resolve(output), text, { flag: "wx", mode: 0o600 });
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "EEXIST") {
			throw new UsageError(`${output} already exists; choose another file or remove it first`, "sessions");
		}
		throw error;
	}
	terminal.stderr.write(`Wrote ${output}\n`);
}

async function importFile(
	file: string,
	format: string | undefined,
	sessionId: string | undefined,
	terminal: Terminal,
	store: ReturnType<typeof openSessionStore>,
): Promise<number> {
	if (format !== undefined && format !== "auto" && format !== "pi" && format !== "claude-code") {
		throw new UsageError(`--format for import expects auto, pi or claude-code, got "${format}"`, "sessions");
	}
	const path = resolve(file);
	let text: string;
	try {
		text = await readFile(path, "utf8");
	} catch (error) {
		throw new UsageError(`cannot read ${file}: ${(error as Error).message}`, "sessions");
	}
	try {
		const result = await importTranscript(store, text, {
			format: format ?? "auto",
			source: file,
			sidechains: await subAgentFiles(path),
			...(sessionId === undefined ? {} : { sessionId }),
		});
		const kind = result.format === "pi" ? "pi session" : "Claude Code transcript";
		const sidechains =
			result.sidechains.length === 0
				? ""
				: `, and ${result.sidechains.length} sub-agent sidechain${result.sidechains.length === 1 ? "" : "s"}`;
		terminal.stdout.write(`${result.session.sessionId}\n`);
		terminal.stderr.write(
			`Imported the ${kind} ${file} as session ${result.session.sessionId} (${result.session.messageCount} messages${sidechains}); the file was not changed. keel sessions show ${result.session.sessionId}\n`,
		);
		return EXIT_SUCCESS;
	} catch (error) {
		if (error instanceof TranscriptInterchangeError) throw new UsageError(error.message, "sessions");
		throw error;
	}
}

/** Claude Code keeps a session's sub-agents in <session>/subagents/agent-*.jsonl beside <session>.jsonl. */
async function subAgentFiles(path: string): Promise<ClaudeCodeSidechainSource[]> {
	const directory = join(dirname(path), basename(path, ".jsonl"), "subagents");
	let names: string[];
	try {
		names = (await readdir(directory)).filter((name) => name.endsWith(".jsonl")).sort();
	} catch {
		return [];
	}
	return Promise.all(
		names.map(async (name) => {
			const source: ClaudeCodeSidechainSource = { name, text: await readFile(join(directory, name), "utf8") };
			// Newer versions name the tool call that started the agent in agent-<id>.meta.json.
			try {
				const meta = JSON.parse(await readFile(join(directory, name.replace(/\.jsonl$/, ".meta.json")), "utf8"));
				if (typeof meta?.toolUseId === "string") source.toolUseId = meta.toolUseId;
			} catch {
				// No meta file (older versions): the main transcript's progress lines link the agent.
			}
			return source;
		}),
	);
}

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
	// Cut off by a line typed during the answer in keel chat (agent-core's steering interrupt).
	if (message.stopReason === "aborted" && message.errorMessage === INTERRUPTED_BY_STEERING_TEXT) return "[interrupted]";
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
