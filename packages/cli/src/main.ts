// `keel <command> …`: finds the command, prints help, and turns what a command throws into a message
// on stderr and an exit code. Returns the exit code instead of exiting, so tests run it in-process.
import { type Command, EXIT_FAILURE, EXIT_SUCCESS, EXIT_USAGE, UsageError } from "./command.js";
import { aliasesCommand } from "./commands/aliases.js";
import { chatCommand } from "./commands/chat.js";
import { keysCommand, loginCommand, logoutCommand } from "./commands/credentials.js";
import { logsCommand } from "./commands/logs.js";
import { modelsCommand } from "./commands/models.js";
import { promptCommand } from "./commands/prompt.js";
import { serveCommand } from "./commands/serve.js";
import { sessionsCommand } from "./commands/sessions.js";
import { templatesCommand } from "./commands/templates.js";
import { toolsCommand } from "./commands/tools.js";
import { colorEnabled, createStyles, type Terminal } from "./terminal.js";
import { CLI_VERSION } from "./version.js";

export const COMMANDS: Command[] = [
	promptCommand,
	chatCommand,
	modelsCommand,
	logsCommand,
	sessionsCommand,
	aliasesCommand,
	templatesCommand,
	toolsCommand,
	serveCommand,
	keysCommand,
	loginCommand,
	logoutCommand,
];

function overview(): string {
	const width = Math.max(...COMMANDS.map((command) => command.name.length));
	const lines = COMMANDS.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`);
	return `Usage: keel <command> [options]
       keel "prompt" [options]       (prompt is the default command: keel prompt "prompt")

Talk to LLMs from the shell: every provider Keel knows, or any OpenAI-compatible server.

Commands:
${lines.join("\n")}

Run \`keel <command> --help\` for a command's options and examples.

Examples:
  keel models --search claude
  keel models default anthropic/claude-sonnet-4-6
  keel "Explain SSE in one paragraph"
  cat notes.txt | keel -m openai/gpt-4o-mini "Turn these notes into a todo list"
  keel -c "Now as a table"
  keel chat -m anthropic/claude-sonnet-4-6
  keel logs -n 5

Environment: KEEL_MODEL, KEEL_BASE_URL, KEEL_API, KEEL_API_KEY, KEEL_PROXY_TOKEN (keel serve), KEEL_HOME (default ~/.keel:
logs, settings, templates), NO_COLOR. Provider keys come from their usual variables (ANTHROPIC_API_KEY, OPENAI_API_KEY, …).`;
}

const isHelpFlag = (argument: string) => argument === "--help" || argument === "-h";

export async function runKeel(args: string[], terminal: Terminal): Promise<number> {
	// As in llm, anything that is not a command is a prompt: `keel "text"`, `keel -m x "text"`, and
	// `cat file | keel` with no arguments at all.
	if (args.length === 0 ? terminal.stdin.isTTY !== true : !isCommandWord(args[0])) {
		return runCommand(promptCommand, args, terminal);
	}
	const [name, ...rest] = args;
	if (name === undefined || isHelpFlag(name) || name === "help") {
		const topic = name === "help" ? COMMANDS.find((command) => command.name === rest[0]) : undefined;
		terminal.stdout.write(`${topic ? topic.help : overview()}\n`);
		return name === undefined && terminal.stdout.isTTY !== true ? EXIT_USAGE : EXIT_SUCCESS;
	}
	if (name === "--version" || name === "-v") {
		terminal.stdout.write(`${CLI_VERSION}\n`);
		return EXIT_SUCCESS;
	}
	const command = COMMANDS.find((candidate) => candidate.name === name) as Command;
	return runCommand(command, rest, terminal);
}

function isCommandWord(argument: string): boolean {
	return (
		isHelpFlag(argument) ||
		argument === "help" ||
		argument === "--version" ||
		argument === "-v" ||
		COMMANDS.some((command) => command.name === argument)
	);
}

async function runCommand(command: Command, rest: string[], terminal: Terminal): Promise<number> {
	const styles = createStyles(colorEnabled(terminal.stderr, terminal.env));
	// Everything after `--` is text, even when it looks like a flag.
	const end = rest.indexOf("--");
	if ((end === -1 ? rest : rest.slice(0, end)).some(isHelpFlag)) {
		terminal.stdout.write(`${command.help}\n`);
		return EXIT_SUCCESS;
	}
	try {
		return await command.run(rest, terminal);
	} catch (error) {
		if (error instanceof UsageError) {
			terminal.stderr.write(
				`${styles.red(`keel ${command.name}:`)} ${error.message}\nRun \`keel ${command.name} --help\` for usage.\n`,
			);
			return EXIT_USAGE;
		}
		terminal.stderr.write(`${styles.red("Error:")} ${error instanceof Error ? error.message : String(error)}\n`);
		return EXIT_FAILURE;
	}
}
