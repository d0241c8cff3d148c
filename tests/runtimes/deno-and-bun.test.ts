// Deno and Bun, from their npm packages: the same script as the Node test (the built package,
// imported as `@keel/ai` from node_modules) streams every API from the wire-test servers. Each
// runtime skips, saying why, when its binary is not installed for this platform.
import { execFile } from "node:child_process";
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, it } from "vitest";
import { bundleForNode, createProjectDirectory } from "./bundle.js";
import { expectStreamedAnswer, summariesByApi } from "./expect-streamed-answer.js";
import { findStandaloneRuntime, type StandaloneRuntime } from "./standalone-runtimes.js";
import { RUNTIME_APIS, type StreamSummary } from "./stream-cases.js";
import { WireServers } from "./wire-servers.js";

const run = promisify(execFile);
let directory: string | undefined;
let script: string;

beforeAll(async () => {
	directory = await createProjectDirectory();
	// Deno reads node_modules (instead of fetching npm: packages) in a directory with a package.json.
	await writeFile(join(directory, "package.json"), JSON.stringify({ type: "module", private: true }));
	script = await bundleForNode("node-main.ts", directory);
});

afterAll(async () => {
	if (directory) await rm(directory, { recursive: true, force: true });
});

/** The command line that runs the script: Deno with only the permissions it needs. */
function commandFor(runtime: StandaloneRuntime & { binary: { path: string } }, urls: string): string[] {
	if (runtime.name === "bun") return [script, urls];
	return ["run", "--no-prompt", "--allow-net=127.0.0.1", "--allow-read", "--allow-env", script, urls];
}

describe.each(["deno", "bun"] as const)("streaming in %s", (name) => {
	const runtime = findStandaloneRuntime(name);
	let servers: WireServers | undefined;
	let summaries: Map<string, StreamSummary> | undefined;

	beforeAll(async () => {
		if (!("path" in runtime.binary)) return;
		servers = await WireServers.start();
		servers.prepare();
		const { stdout } = await run(
			runtime.binary.path,
			commandFor(runtime as StandaloneRuntime & { binary: { path: string } }, JSON.stringify(servers.urls)),
			{
				cwd: directory,
				timeout: 30_000,
				env: { ...process.env, DENO_DIR: join(directory as string, ".deno"), DENO_NO_UPDATE_CHECK: "1" },
			},
		);
		summaries = summariesByApi(JSON.parse(stdout) as StreamSummary[]);
	}, 60_000);

	afterAll(async () => {
		await servers?.close();
	});

	it.for(RUNTIME_APIS)("%s streams text and a tool call", (api, context) => {
		if (!summaries) {
			console.warn(
				`Skipping the ${name} stream of ${api}: ${"missing" in runtime.binary ? runtime.binary.missing : ""}`,
			);
			context.skip();
			return;
		}
		expectStreamedAnswer(summaries.get(api));
		servers?.expectOneStreamingRequest(api);
	});
});
