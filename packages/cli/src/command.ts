// The shape every `keel` subcommand has, the exit codes they share, and argument parsing with
// node:util's parseArgs, whose errors become a usage error that names the command's --help.
import { type ParseArgsConfig, parseArgs } from "node:util";

type ParseArgsOptionsConfig = NonNullable<ParseArgsConfig["options"]>;

import type { Terminal } from "./terminal.js";

export const EXIT_SUCCESS = 0;
/** The model call or the operation failed. */
export const EXIT_FAILURE = 1;
/** The command line was wrong (unknown flag, missing argument, bad value). */
export const EXIT_USAGE = 2;
/** Stopped with Ctrl-C: 128 + SIGINT, as shells report it. */
export const EXIT_INTERRUPTED = 130;

export interface Command {
	name: string;
	/** One line for `keel --help`. */
	summary: string;
	/** The whole `keel <name> --help` text: usage, options, examples. */
	help: string;
	run(args: string[], terminal: Terminal): Promise<number>;
}

/** Wrong command-line input: printed with a pointer to the command's help, exit code 2. */
export class UsageError extends Error {
	constructor(
		message: string,
		readonly commandName?: string,
	) {
		super(message);
		this.name = "UsageError";
	}
}

export function parseCommandArguments<TOptions extends ParseArgsOptionsConfig>(
	commandName: string,
	args: string[],
	options: TOptions,
) {
	try {
		return parseArgs({ args, options, allowPositionals: true, strict: true });
	} catch (error) {
		// parseArgs messages read well ("Unknown option '--foo'"); drop its advice about `--`.
		const message =
			error instanceof Error ? error.message.replace(/\. To specify a positional.*$/s, "") : String(error);
		throw new UsageError(message, commandName);
	}
}

/** A whole number ≥ 1 from a flag, or a usage error naming the flag. */
export function parsePositiveInteger(commandName: string, flag: string, value: string | undefined): number | undefined {
	if (value === undefined) return undefined;
	const number = Number(value);
	if (!Number.isInteger(number) || number < 1) {
		throw new UsageError(`${flag} expects a whole number of at least 1, got "${value}"`, commandName);
	}
	return number;
}
