// Runs a command for the packaging test and keeps its output, so a failure shows what the tool said.
import { execFile } from "node:child_process";

export interface CommandResult {
	exitCode: number;
	stdout: string;
	stderr: string;
}

export interface CommandOptions {
	cwd: string;
	env?: NodeJS.ProcessEnv;
	/** Kills the command after this long; its result then says so. */
	timeoutMs: number;
}

/** Resolves with the exit code and output, whatever the exit code. */
export function runCommand(command: string, args: string[], options: CommandOptions): Promise<CommandResult> {
	return new Promise((resolve) => {
		execFile(
			command,
			args,
			{ cwd: options.cwd, env: options.env ?? process.env, timeout: options.timeoutMs, maxBuffer: 64 * 1024 * 1024 },
			(error, stdout, stderr) => {
				const timedOut = error !== null && error.killed === true;
				const exitCode = error === null ? 0 : typeof error.code === "number" ? error.code : 1;
				const note = timedOut ? `\n(killed after ${options.timeoutMs} ms)` : "";
				resolve({ exitCode, stdout, stderr: stderr + note });
			},
		);
	});
}

/** Resolves with stdout; rejects with the command, its directory and its whole output when it fails. */
export async function runCommandOrThrow(command: string, args: string[], options: CommandOptions): Promise<string> {
	const result = await runCommand(command, args, options);
	if (result.exitCode !== 0) {
		throw new Error(
			`\`${[command, ...args].join(" ")}\` failed with exit code ${result.exitCode} in ${options.cwd}\n` +
				`--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`,
		);
	}
	return result.stdout;
}

/** This process's environment without npm's `npm_*` variables (set by `npm test`), so a nested npm reads only its flags. */
export function environmentWithoutNpmSettings(): NodeJS.ProcessEnv {
	return Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
}
