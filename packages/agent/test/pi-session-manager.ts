// Runs pi's own SessionManager (@earendil-works/pi-coding-agent) on session files, for the tests
// that check pi opens what Keel exports. pi requires Node 22.19 and Keel's tests run on Node 20, so
// pi runs in a child process (fixtures/pi/read-with-pi.mjs): under this Node when it is new enough,
// else under the Node 22 binary that scripts/ensure-runtimes.mjs installs (npm test runs it) beside
// pi in node_modules/.cache/keel-pi. KEEL_PI_CODING_AGENT names another installed copy of pi.
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";

const repositoryRoot = join(import.meta.dirname, "..", "..", "..");
const reader = join(import.meta.dirname, "fixtures", "pi", "read-with-pi.mjs");

interface PiInstallConfig {
	directory: string;
	node: { minimum: string; binaries: Record<string, { package: string; file: string }> };
}

const { pi: config } = JSON.parse(readFileSync(join(repositoryRoot, "scripts", "runtime-packages.json"), "utf8")) as {
	pi: PiInstallConfig;
};

const INSTALL_HINT = "run `node scripts/ensure-runtimes.mjs` (npm test does) to install it";

/** The message pi would give the model, as far as these tests look at it. */
export interface PiContextMessage {
	role: string;
	content?: unknown;
	summary?: string;
}

export interface PiReading {
	/** The version of the Node that ran pi. */
	node: string;
	/** Per file, in order: the session's name and the context pi builds from its current leaf. */
	sessions: { name?: string; messages: PiContextMessage[] }[];
}

export type PiSessionManager =
	| { read(files: string[]): Promise<PiReading> }
	/** Why pi cannot run here. */
	| { missing: string };

function atLeast(version: string, minimum: string): boolean {
	const [a, b] = [version, minimum].map((text) => text.split(".").map(Number));
	for (let index = 0; index < 3; index++) if (a[index] !== b[index]) return a[index] > b[index];
	return true;
}

function findNode(): { path: string } | { missing: string } {
	if (atLeast(process.versions.node, config.node.minimum)) return { path: process.execPath };
	const platform = `${process.platform}-${process.arch}`;
	const binary = config.node.binaries[platform];
	if (!binary) {
		return {
			missing: `pi needs Node >= ${config.node.minimum}, this is ${process.versions.node}, and scripts/runtime-packages.json lists no Node binary package for ${platform}`,
		};
	}
	const path = join(repositoryRoot, config.directory, "node_modules", binary.package, binary.file);
	if (existsSync(path)) return { path };
	return { missing: `pi needs Node >= ${config.node.minimum} and ${binary.package} is not installed: ${INSTALL_HINT}` };
}

export function findPiSessionManager(): PiSessionManager {
	const fromEnvironment = process.env.KEEL_PI_CODING_AGENT;
	const piPackage =
		fromEnvironment ?? join(repositoryRoot, config.directory, "node_modules", "@earendil-works", "pi-coding-agent");
	if (!existsSync(join(piPackage, "dist", "core", "session-manager.js"))) {
		return {
			missing:
				fromEnvironment === undefined
					? `@earendil-works/pi-coding-agent is not installed: ${INSTALL_HINT}`
					: `KEEL_PI_CODING_AGENT=${fromEnvironment} has no dist/core/session-manager.js`,
		};
	}
	const node = findNode();
	if ("missing" in node) return node;
	return {
		async read(files) {
			const { stdout } = await promisify(execFile)(node.path, [reader, piPackage, ...files], {
				maxBuffer: 64 * 1024 * 1024,
			});
			return JSON.parse(stdout) as PiReading;
		},
	};
}
