// Cloudflare's workerd: a Worker bundled with esbuild (the export conditions wrangler uses, no
// Node.js compatibility) streams every API from the wire-test servers and answers with the
// summaries as JSON.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Bundle, bundleFor, describeBuildFailure, entryPath } from "./bundle.js";
import { expectStreamedAnswer, summariesByApi } from "./expect-streamed-answer.js";
import { RUNTIME_APIS, type StreamSummary } from "./stream-cases.js";
import { WireServers } from "./wire-servers.js";
import { findWorkerdBinary, type RunningWorker, startWorker } from "./workerd-process.js";

let bundle: Bundle | undefined;
let bundleError: string | undefined;
let skipReason: string | undefined;
let servers: WireServers | undefined;
let worker: RunningWorker | undefined;
let summaries: Map<string, StreamSummary> | undefined;

beforeAll(async () => {
	try {
		bundle = await bundleFor("worker", { file: entryPath("worker.ts") });
	} catch (error) {
		bundleError = describeBuildFailure(error);
		return;
	}
	const binary = findWorkerdBinary();
	if ("missing" in binary) {
		skipReason = binary.missing;
		return;
	}
	servers = await WireServers.start();
	worker = await startWorker(binary.path, bundle.code);
	servers.prepare();
	const response = await fetch(worker.url, {
		method: "POST",
		body: JSON.stringify(servers.urls),
		signal: AbortSignal.timeout(45_000),
	});
	const text = await response.text();
	if (!response.ok) throw new Error(`The Worker answered ${response.status}: ${text}\nworkerd log:\n${worker.log}`);
	summaries = summariesByApi(JSON.parse(text) as StreamSummary[]);
}, 60_000);

afterAll(async () => {
	await worker?.stop();
	await servers?.close();
});

describe("streaming in a Cloudflare Worker (workerd)", () => {
	it("bundles the Worker with the conditions wrangler uses and no Node.js compatibility", () => {
		expect(bundleError, "esbuild could not bundle the Worker").toBeUndefined();
		expect(bundle?.code).toContain("runStreamCases");
	});

	it.for(RUNTIME_APIS)("%s streams text and a tool call", (api, context) => {
		if (!summaries) {
			if (bundleError) throw new Error(`The Worker could not be bundled: ${bundleError}`);
			console.warn(`Skipping the workerd stream of ${api}: ${skipReason}`);
			context.skip();
			return;
		}
		expectStreamedAnswer(summaries.get(api));
		servers?.expectOneStreamingRequest(api);
	});
});
