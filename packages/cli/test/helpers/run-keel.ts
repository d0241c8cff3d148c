// Runs the built `keel` (dist/cli.js) as a user's shell would: arguments, text piped on stdin, an
// environment of our choosing (no provider key of the machine leaks in), and the exit code and both
// streams captured.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const CLI_PATH = fileURLToPath(new URL("../../dist/cli.js", import.meta.url));

export interface KeelResult {
	exitCode: number | null;
	stdout: string;
	stderr: string;
}

export interface RunKeelOptions {
	/** Written to stdin, which is then closed; without it stdin is closed at once (an empty pipe). */
	input?: string | Uint8Array;
	env?: Record<string, string>;
	/** Node flags before the script, e.g. ["--import", preload]. */
	nodeArguments?: string[];
}

/** Fails with what to run when the CLI has not been built. */
export function assertCliBuilt(): void {
	if (!existsSync(CLI_PATH)) {
		throw new Error(`${CLI_PATH} is missing: build first (\`npx -y pnpm@10.34.9 run build\` at the repository root)`);
	}
}

/** A fresh home directory, so stored sessions and credentials of one test never reach another. */
export function createTemporaryHome(): string {
	return mkdtempSync(join(tmpdir(), "keel-cli-home-"));
}

/** The environment every spawned CLI gets: PATH and a private home, nothing else unless given. */
export function isolatedEnvironment(home: string, extra: Record<string, string> = {}): Record<string, string> {
	return { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, KEEL_HOME: join(home, ".keel"), ...extra };
}

export function runKeel(args: string[], options: RunKeelOptions = {}): Promise<KeelResult> {
	assertCliBuilt();
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [...(options.nodeArguments ?? []), CLI_PATH, ...args], {
			env: options.env ?? isolatedEnvironment(createTemporaryHome()),
			stdio: ["pipe", "pipe", "pipe"],
		});
		let stdout = "";
		let stderr = "";
		child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
			stdout += chunk;
		});
		child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
			stderr += chunk;
		});
		child.on("error", reject);
		child.on("close", (exitCode) => resolve({ exitCode, stdout, stderr }));
		child.stdin.end(options.input ?? "");
	});
}
