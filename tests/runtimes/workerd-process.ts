// Runs a Worker module in workerd, Cloudflare's Workers runtime, from the `workerd` npm package that
// scripts/ensure-runtimes.mjs installs (its binary ships in a platform package). The Worker listens on a free
// port of 127.0.0.1 and may open connections to loopback addresses only.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { INSTALL_HINT, requireRuntimePackage } from "./runtime-packages.js";

// A date this workerd release supports; fixed so the test does not move with upgrades.
const COMPATIBILITY_DATE = "2025-09-01";

/** The workerd binary, or why there is none. */
export function findWorkerdBinary(): { path: string } | { missing: string } {
	let path: unknown;
	try {
		// The package's main exports the path of the platform binary it found.
		path = requireRuntimePackage("workerd").default;
	} catch (error) {
		return {
			missing: `the workerd package cannot be loaded (${error instanceof Error ? error.message.split("\n")[0] : error}): ${INSTALL_HINT}`,
		};
	}
	if (typeof path !== "string" || !existsSync(path)) {
		return {
			missing: `workerd has no binary for ${process.platform}-${process.arch} (its platform package was not installed)`,
		};
	}
	return { path };
}

/**
 * The config: one Worker (no Node.js compatibility flag: a Worker that does not opt in has no
 * node: modules) whose outgoing fetches go to a network service that allows loopback only.
 * @see https://github.com/cloudflare/workerd/blob/main/src/workerd/server/workerd.capnp
 */
function workerdConfig(moduleFile: string): string {
	return `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    (name = "main", worker = .worker),
    (name = "loopback", network = (allow = ["local"])),
  ],
  sockets = [(name = "http", address = "127.0.0.1:0", http = (), service = "main")],
);

const worker :Workerd.Worker = (
  modules = [(name = "worker.js", esModule = embed "${moduleFile}")],
  compatibilityDate = "${COMPATIBILITY_DATE}",
  globalOutbound = "loopback",
);
`;
}

export interface RunningWorker {
	url: string;
	/** What workerd wrote to stderr (uncaught errors, console output), for failure messages. */
	readonly log: string;
	stop(): Promise<void>;
}

/** Starts workerd with the module and resolves once its socket listens. */
export async function startWorker(binary: string, moduleCode: string): Promise<RunningWorker> {
	const directory = await mkdtemp(join(tmpdir(), "keel-workerd-"));
	await writeFile(join(directory, "worker.js"), moduleCode);
	await writeFile(join(directory, "config.capnp"), workerdConfig("worker.js"));
	// fd 3 is the control channel: workerd reports there the port it bound for port 0.
	const child = spawn(binary, ["serve", "config.capnp", "--control-fd=3"], {
		cwd: directory,
		stdio: ["ignore", "pipe", "pipe", "pipe"],
	});
	let log = "";
	child.stdout?.on("data", (chunk) => {
		log += chunk;
	});
	child.stderr?.on("data", (chunk) => {
		log += chunk;
	});
	const stop = async () => {
		await stopChild(child);
		await rm(directory, { recursive: true, force: true });
	};
	try {
		const port = await listeningPort(child, () => log);
		return {
			url: `http://127.0.0.1:${port}`,
			get log() {
				return log;
			},
			stop,
		};
	} catch (error) {
		await stop();
		throw error;
	}
}

/** Reads `{"event":"listen","socket":"http","port":N}` from the control channel. */
function listeningPort(child: ChildProcess, log: () => string): Promise<number> {
	const control = child.stdio[3] as Readable;
	return new Promise((resolve, reject) => {
		let buffered = "";
		control.on("data", (chunk) => {
			buffered += chunk;
			for (const line of buffered.split("\n")) {
				try {
					const message = JSON.parse(line) as { event?: string; socket?: string; port?: number };
					if (message.event === "listen" && message.socket === "http" && typeof message.port === "number") {
						resolve(message.port);
					}
				} catch {
					// A line not complete yet.
				}
			}
		});
		child.once("exit", (code, signal) =>
			reject(new Error(`workerd exited before listening (${signal ?? `status ${code}`}):\n${log()}`)),
		);
		child.once("error", reject);
	});
}

function stopChild(child: ChildProcess): Promise<void> {
	if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
	return new Promise((resolve) => {
		child.once("exit", () => resolve());
		child.kill("SIGTERM");
	});
}
