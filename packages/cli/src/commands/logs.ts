// `keel logs`: every prompt and answer, from the conversations stored as sessions: list and search
// them (text, model, date), show one conversation, print JSON, and turn logging off or on.

import { formatUsage } from "../answer-output.js";
import { openPrivateSessionStore } from "../call-setup.js";
import { type Command, EXIT_SUCCESS, parseCommandArguments, parsePositiveInteger, UsageError } from "../command.js";
import { readKeelConfig, updateKeelConfig } from "../config/keel-config.js";
import { sessionsDirectory } from "../sessions/keel-home.js";
import { type LogEntry, readLogEntries } from "../sessions/log-entries.js";
import { colorEnabled, createStyles, type Styles } from "../terminal.js";

const help = `Usage: keel logs [list] [options]
       keel logs show <conversation id> [--json]
       keel logs off | on | status

Every prompt and its answer is logged, one-shot prompts and chats alike, with the model, the
tokens, the cost and how long the answer took. Conversations are stored as sessions in
$KEEL_HOME/sessions (default ~/.keel/sessions), readable by you only.

Subcommands:
  list                 the latest prompts and answers, newest first (the default)
  show <id>            one conversation, every exchange in order (same as --cid <id>)
  off                  stop logging (--log logs one prompt anyway)
  on                   log again
  status               whether logging is on, and where the logs are

Options:
  -n, --count n        how many exchanges to list (default 3; 0 for all)
  -q, --query text     only exchanges whose prompt or answer contain text (case-insensitive)
  -m, --model text     only answers from models whose provider/id contain text
      --since date     only prompts sent on or after date (2026-11-27, or an ISO time)
      --until date     only prompts sent before date
      --cid id         only this conversation
      --json           print the exchanges as a JSON array
  -r, --response       print only the latest answer's text (after the filters)
  -h, --help           show this help

Examples:
  keel logs
  keel logs -n 10 -q "server-sent events"
  keel logs -m claude --since 2026-11-01 --json | jq '.[].usage.cost.total'
  keel logs -r | pbcopy
  keel logs show 2026-11-27T07-08-33-prmqyp
  keel logs off`;

export const logsCommand: Command = {
	name: "logs",
	summary: "list and search logged prompts and answers; turn logging off or on",
	help,
	async run(args, terminal) {
		const { values, positionals } = parseCommandArguments("logs", args, {
			count: { type: "string", short: "n" },
			query: { type: "string", short: "q" },
			model: { type: "string", short: "m" },
			since: { type: "string" },
			until: { type: "string" },
			cid: { type: "string" },
			json: { type: "boolean" },
			response: { type: "boolean", short: "r" },
		});
		const [subcommand = "list", argument, ...extra] = positionals;
		const expectArguments = (count: number) => {
			const given = [argument, ...extra].filter((value) => value !== undefined).length;
			if (given > count)
				throw new UsageError(`unexpected arguments: ${[argument, ...extra].slice(count).join(" ")}`, "logs");
		};
		if (subcommand === "off" || subcommand === "on") {
			expectArguments(0);
			updateKeelConfig(terminal.env, (config) => {
				config.logging = subcommand === "on";
			});
			terminal.stderr.write(
				subcommand === "on"
					? "Logging is on.\n"
					: "Logging is off: prompts are no longer logged (--log logs one anyway).\n",
			);
			return EXIT_SUCCESS;
		}
		if (subcommand === "status") {
			expectArguments(0);
			const store = openPrivateSessionStore(terminal.env);
			const count = (await store.list()).length;
			const state = readKeelConfig(terminal.env).logging ? "on" : "off";
			terminal.stdout.write(
				`Logging is ${state}. ${count} conversation${count === 1 ? "" : "s"} in ${sessionsDirectory(terminal.env)}\n`,
			);
			return EXIT_SUCCESS;
		}
		if (subcommand !== "list" && subcommand !== "show") {
			throw new UsageError(`unknown subcommand "${subcommand}": expected list, show, off, on or status`, "logs");
		}
		let conversationId = values.cid;
		if (subcommand === "show") {
			expectArguments(1);
			if (argument === undefined) throw new UsageError("show needs a conversation id (keel logs lists them)", "logs");
			conversationId = argument;
		} else {
			expectArguments(0);
		}
		const since = parseDate("--since", values.since);
		const until = parseDate("--until", values.until);
		const count = values.count === "0" ? 0 : (parsePositiveInteger("logs", "--count", values.count) ?? 3);
		const store = openPrivateSessionStore(terminal.env);
		if (conversationId !== undefined && !(await store.exists(conversationId))) {
			throw new UsageError(`no conversation "${conversationId}" (keel logs lists them)`, "logs");
		}
		const query = values.query?.toLowerCase();
		const model = values.model?.toLowerCase();
		let entries = (await readLogEntries(store, conversationId)).filter(
			(entry) =>
				(query === undefined || `${entry.prompt}\n${entry.response}`.toLowerCase().includes(query)) &&
				(model === undefined || (entry.model ?? "").toLowerCase().includes(model)) &&
				(since === undefined || entry.timestamp >= since) &&
				(until === undefined || entry.timestamp < until),
		);
		// A whole conversation reads in order; otherwise the newest first, the count limiting.
		if (conversationId !== undefined) entries = entries.reverse();
		else if (count > 0) entries = entries.slice(0, count);
		if (values.response) {
			const latest = conversationId !== undefined ? entries.at(-1) : entries[0];
			if (latest) terminal.stdout.write(`${latest.response}\n`);
			return EXIT_SUCCESS;
		}
		if (values.json) {
			terminal.stdout.write(`${JSON.stringify(entries, null, 2)}\n`);
			return EXIT_SUCCESS;
		}
		if (entries.length === 0) {
			terminal.stderr.write(
				readKeelConfig(terminal.env).logging
					? "No logged prompts match.\n"
					: "No logged prompts match (logging is off: keel logs on).\n",
			);
			return EXIT_SUCCESS;
		}
		const styles = createStyles(colorEnabled(terminal.stdout, terminal.env));
		terminal.stdout.write(entries.map((entry) => formatEntry(entry, styles)).join("\n"));
		return EXIT_SUCCESS;
	},
};

/** A date flag as epoch milliseconds; a bare date is midnight UTC. */
function parseDate(flag: string, value: string | undefined): number | undefined {
	if (value === undefined) return undefined;
	const time = Date.parse(value);
	if (Number.isNaN(time))
		throw new UsageError(`${flag} expects a date such as 2026-11-27 or 2026-11-27T09:00, got "${value}"`, "logs");
	return time;
}

export function formatDuration(milliseconds: number): string {
	return milliseconds < 1000 ? `${milliseconds} ms` : `${(milliseconds / 1000).toFixed(1)} s`;
}

function formatEntry(entry: LogEntry, styles: Styles): string {
	const details = [
		new Date(entry.timestamp)
			.toISOString()
			.replace("T", " ")
			.replace(/\.\d+Z$/, " UTC"),
		entry.model ?? "no answer",
		entry.stopReason === "error" ? `error: ${entry.errorMessage ?? "failed"}` : formatUsage(entry.usage),
		entry.durationMs !== undefined ? formatDuration(entry.durationMs) : undefined,
		entry.stopReason === "aborted" ? "stopped" : undefined,
		entry.attachments > 0 ? `${entry.attachments} attachment${entry.attachments === 1 ? "" : "s"}` : undefined,
	].filter((part) => part !== undefined);
	const quoted = entry.prompt
		.split("\n")
		.map((line) => `> ${line}`)
		.join("\n");
	return `${styles.bold(`# ${entry.conversationId}`)}\n${styles.dim(details.join(" · "))}\n\n${quoted}\n\n${entry.response}\n`;
}
