// A PostgreSQL cluster of a test's own, in a temporary directory on a free port: for scenarios that
// restart the server, which the shared server must never be. initdb refuses to run as root, so as
// root the cluster belongs to the `postgres` OS user (runuser), as CI runs.
import { execFile } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** The bin directory of the newest PostgreSQL installed the Debian way, or undefined. */
export function findPostgresBin(): string | undefined {
	const root = "/usr/lib/postgresql";
	if (!existsSync(root)) return undefined;
	const versions = readdirSync(root)
		.filter((name) => existsSync(join(root, name, "bin", "initdb")))
		.sort((a, b) => Number(b) - Number(a));
	return versions.length === 0 ? undefined : join(root, versions[0], "bin");
}

async function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.once("error", reject);
		server.listen(0, "127.0.0.1", () => {
			const { port } = server.address() as { port: number };
			server.close(() => resolve(port));
		});
	});
}

export interface PrivateCluster {
	port: number;
	connectionString: string;
	/** `pg_ctl restart -m fast`: sessions are cut off, transactions in flight rolled back. */
	restart(): Promise<void>;
	/** `pg_ctl stop -m fast`: like the first half of `restart`, leaving the server down until `start`. */
	stop(): Promise<void>;
	/** Starts the server again after `stop`. */
	start(): Promise<void>;
	/** Stops the server (if running) and deletes its directory. */
	destroy(): Promise<void>;
}

export async function startPrivateCluster(bin: string): Promise<PrivateCluster> {
	const directory = mkdtempSync(join(tmpdir(), "keel-pg-cluster-"));
	const data = join(directory, "data");
	const log = join(directory, "server.log");
	const asRoot = userInfo().uid === 0;
	if (asRoot) {
		const { stdout } = await run("id", ["-u", "postgres"]);
		const { stdout: group } = await run("id", ["-g", "postgres"]);
		chownSync(directory, Number(stdout.trim()), Number(group.trim()));
	}
	chmodSync(directory, 0o700);
	const command = async (program: string, args: string[]) => {
		const [file, fullArgs] = asRoot
			? ["runuser", ["-u", "postgres", "--", join(bin, program), ...args]]
			: [join(bin, program), args];
		await run(file, fullArgs, { timeout: 120_000 });
	};
	const port = await freePort();
	const options = `-p ${port} -k ${directory} -c listen_addresses=127.0.0.1 -c fsync=off`;
	const pgCtl = (action: string, ...extra: string[]) =>
		command("pg_ctl", [action, "-D", data, "-l", log, "-w", "-t", "120", "-o", options, ...extra]);
	const destroy = async () => {
		await command("pg_ctl", ["stop", "-D", data, "-m", "immediate", "-w", "-t", "120"]).catch(() => {});
		rmSync(directory, { recursive: true, force: true });
	};
	try {
		await command("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync"]);
		await pgCtl("start");
	} catch (error) {
		await destroy();
		throw error;
	}
	return {
		port,
		connectionString: `postgres://postgres@127.0.0.1:${port}/postgres`,
		restart: () => pgCtl("restart", "-m", "fast"),
		stop: () => pgCtl("stop", "-m", "fast"),
		start: () => pgCtl("start"),
		destroy,
	};
}
