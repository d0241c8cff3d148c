// Node: every API streams through the built package, imported as `@keel/ai` by a plain `node`
// process (no test runner in between), from the wire-test servers.
import { execFile } from "node:child_process";
import { rm } from "node:fs/promises";
import { dirname } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, it } from "vitest";
import { bundleForNode } from "./bundle.js";
import { expectStreamedAnswer, summariesByApi } from "./expect-streamed-answer.js";
import { RUNTIME_APIS, type StreamSummary } from "./stream-cases.js";
import { WireServers } from "./wire-servers.js";

const run = promisify(execFile);
let servers: WireServers;
let script: string;
let summaries: Map<string, StreamSummary>;

beforeAll(async () => {
	servers = await WireServers.start();
	script = await bundleForNode("node-main.ts");
	servers.prepare();
	const { stdout } = await run(process.execPath, [script, JSON.stringify(servers.urls)], { timeout: 30_000 });
	summaries = summariesByApi(JSON.parse(stdout) as StreamSummary[]);
});

afterAll(async () => {
	await servers?.close();
	if (script) await rm(dirname(script), { recursive: true, force: true });
});

describe("streaming in Node from the built package", () => {
	it.for(RUNTIME_APIS)("%s streams text and a tool call", (api) => {
		expectStreamedAnswer(summaries.get(api));
		servers.expectOneStreamingRequest(api);
	});
});
