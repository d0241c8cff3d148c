// Starts session-jsonl-child.ts in its own Node process and waits for the lines it prints.
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const script = fileURLToPath(new URL("./session-jsonl-child.ts", import.meta.url));

export interface Child {
	process: ChildProcess;
	/** Resolves with the first printed line that matches. */
	waitFor(match: (line: string) => boolean): Promise<string>;
	lines: string[];
	exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function startChild(args: string[], env: Record<string, string> = {}): Child {
	const child = spawn(process.execPath, ["--import", "tsx", script, ...args], {
		env: { ...process.env, ...env },
		stdio: ["pipe", "pipe", "inherit"],
	});
	const lines: string[] = [];
	const waiters: { match: (line: string) => boolean; resolve: (line: string) => void }[] = [];
	let buffered = "";
	child.stdout?.setEncoding("utf8");
	child.stdout?.on("data", (chunk: string) => {
		buffered += chunk;
		let newline = buffered.indexOf("\n");
		while (newline !== -1) {
			const line = buffered.slice(0, newline);
			buffered = buffered.slice(newline + 1);
			lines.push(line);
			for (const waiter of [...waiters]) {
				if (waiter.match(line)) {
					waiters.splice(waiters.indexOf(waiter), 1);
					waiter.resolve(line);
				}
			}
			newline = buffered.indexOf("\n");
		}
	});
	const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
		child.on("exit", (code, signal) => resolve({ code, signal })),
	);
	return {
		process: child,
		lines,
		exited,
		waitFor(match) {
			const seen = lines.find(match);
			if (seen !== undefined) return Promise.resolve(seen);
			return new Promise((resolve, reject) => {
				waiters.push({ match, resolve });
				exited.then(({ code, signal }) =>
					reject(new Error(`child exited (${code ?? signal}) before the expected line; printed: ${lines.join(" | ")}`)),
				);
			});
		},
	};
}
