// Node: every API streams through the built package, imported as `@keel/ai` by a plain `node`
// process (no test runner in between), from the wire-test servers.
import { execFile } from "node:child_process";
import { rm } from "node:fs/promises";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, it } from "vitest";
import { bundleForNode, createProjectDirectory } from "./bundle.js";
import { expectStreamedAnswer, summariesByApi } from "./expect-streamed-answer.js";
import { RUNTIME_APIS, type StreamSummary } from "./stream-cases.js";
import { WireServers } from "./wire-servers.js";

const run = promisify(execFile);
let servers: WireServers;
let directory: string | undefined;
let summaries: Map<string, StreamSummary>;

beforeAll(async () => {
	servers = await WireServers.start();
	directory = await createProjectDirectory();
	const script = await bundleForNode("node-main.ts", directory);
	servers.prepare();
	const { stdout } = await run(process.execPath, [script, JSON.stringify(servers.urls)], { timeout: 30_000 });
	summaries = summariesByApi(JSON.parse(stdout) as StreamSummary[]);
});

afterAll(async () => {
	await servers?.close();
	if (directory) await rm(directory, { recursive: true, force: true });
});

describe("streaming in Node from the built package", () => {
	it.for(RUNTIME_APIS)("%s streams text and a tool call", (api) => {
		expectStreamedAnswer(summaries.get(api));
		servers.expectOneStreamingRequest(api);
	});
});
