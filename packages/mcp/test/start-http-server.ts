import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";

/** A port free on 127.0.0.1 a moment ago (the server under test is started on it next). */
export async function findFreePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.once("error", reject);
		server.listen(0, "127.0.0.1", () => {
			const address = server.address();
			const port = typeof address === "object" && address ? address.port : 0;
			server.close(() => resolve(port));
		});
	});
}

/**
 * Starts a server script on a free port (as $PORT) and resolves once its stderr shows `readyText`;
 * rejects with its output when it exits first.
 */
export async function startPortServer(
	script: string,
	args: string[],
	readyText: string,
): Promise<{ port: number; process: ChildProcess }> {
	const port = await findFreePort();
	const child = spawn(process.execPath, [script, ...args], {
		env: { ...process.env, PORT: String(port) },
		stdio: ["ignore", "pipe", "pipe"],
	});
	let output = "";
	await new Promise<void>((resolve, reject) => {
		const onData = (chunk: Buffer) => {
			output += chunk.toString();
			if (output.includes(readyText)) resolve();
		};
		child.stdout?.on("data", onData);
		child.stderr?.on("data", onData);
		child.once("exit", (code) => reject(new Error(`server exited with ${code} before it was ready:\n${output}`)));
	});
	return { port, process: child };
}

export async function stopServer(child: ChildProcess): Promise<void> {
	if (child.exitCode !== null || child.signalCode !== null) return;
	const exited = new Promise((resolve) => child.once("exit", resolve));
	child.kill("SIGTERM");
	await exited;
}
