// The `keel` executable: hands the real process streams to runKeel and exits with its code.
// Ctrl-C goes to the running command (which aborts its model call); a second Ctrl-C while the
// command is still winding down exits at once.
import { EXIT_INTERRUPTED } from "./command.js";
import { runKeel } from "./main.js";
import type { Terminal } from "./terminal.js";

// Everything keel writes (logged conversations, settings, templates, credentials) is the user's
// alone: files 0600, folders 0700, whatever the shell's umask.
process.umask(0o077);

const interruptListeners = new Set<() => void>();
let interruptsInARow = 0;

process.on("SIGINT", () => {
	interruptsInARow++;
	if (interruptListeners.size === 0 || interruptsInARow > 1) process.exit(EXIT_INTERRUPTED);
	for (const listener of [...interruptListeners]) listener();
});

// `keel … | head` closes the pipe early: stop quietly, as Unix tools do.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
	if (error.code === "EPIPE") process.exit(0);
	throw error;
});

const terminal: Terminal = {
	stdin: process.stdin,
	stdout: process.stdout,
	stderr: process.stderr,
	env: process.env,
	onInterrupt(listener) {
		const wrapped = () => listener();
		interruptListeners.add(wrapped);
		return () => {
			interruptListeners.delete(wrapped);
			if (interruptListeners.size === 0) interruptsInARow = 0;
		};
	},
};

const exitCode = await runKeel(process.argv.slice(2), terminal);
process.exitCode = exitCode;
// Nothing should keep the process alive after the command, but an open socket kept by a provider
// SDK's agent can; the streams are flushed first.
process.stdout.write("", () => process.exit(exitCode));
