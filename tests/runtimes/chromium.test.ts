// Headless Chromium: a page bundled with esbuild for the browser streams every API straight from
// the wire-test servers (another origin, so through CORS), with each provider's browser opt-in.
//
// It needs /usr/bin/chromium (scripts/ensure-browser.mjs installs it during `npm test`; set
// KEEL_CHROMIUM_PATH for another one). Without a browser that launches, the stream cases skip
// and say why; the bundling case runs anyway.
import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Bundle, bundleFor, describeBuildFailure, entryPath } from "./bundle.js";
import { expectStreamedAnswer, summariesByApi } from "./expect-streamed-answer.js";
import { type PageServer, startPageServer } from "./page-server.js";
import { RUNTIME_APIS, type StreamSummary } from "./stream-cases.js";
import { WireServers } from "./wire-servers.js";

const CHROMIUM_PATH = process.env.KEEL_CHROMIUM_PATH ?? "/usr/bin/chromium";
const CHROMIUM_ARGS = [
	"--headless",
	"--no-sandbox",
	"--disable-gpu",
	"--disable-quic",
	"--no-first-run",
	"--disable-background-networking",
	"--disable-component-update",
	"--disable-sync",
];

let bundle: Bundle | undefined;
let bundleError: string | undefined;
let browser: Browser | undefined;
let skipReason: string | undefined;
let servers: WireServers | undefined;
let pageServer: PageServer | undefined;
let summaries: Map<string, StreamSummary> | undefined;
const pageErrors: string[] = [];

beforeAll(async () => {
	try {
		bundle = await bundleFor("browser", { file: entryPath("browser-page.ts") });
	} catch (error) {
		bundleError = describeBuildFailure(error);
		return;
	}
	if (!existsSync(CHROMIUM_PATH)) {
		skipReason = `${CHROMIUM_PATH} is missing: run "node scripts/ensure-browser.mjs" (as root it installs the Debian chromium package)`;
		return;
	}
	try {
		// Playwright gives every launch a fresh temporary profile (--user-data-dir) and removes it.
		browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
	} catch (error) {
		skipReason = `Chromium at ${CHROMIUM_PATH} did not launch: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`;
		return;
	}
	servers = await WireServers.start();
	pageServer = await startPageServer(bundle.code);
	servers.prepare();
	const page = await browser.newPage();
	page.on("pageerror", (error) => pageErrors.push(error.message));
	try {
		await page.goto(pageServer.url);
		await page.waitForFunction(() => "runStreamCases" in globalThis);
		const result = await page.evaluate(
			(urls) =>
				(globalThis as unknown as { runStreamCases: (value: typeof urls) => Promise<StreamSummary[]> }).runStreamCases(
					urls,
				),
			servers.urls,
		);
		summaries = summariesByApi(result);
	} finally {
		await page.close();
	}
}, 60_000);

afterAll(async () => {
	await browser?.close();
	await pageServer?.close();
	await servers?.close();
});

describe("streaming in headless Chromium", () => {
	it("bundles the page for the browser", () => {
		expect(bundleError, "esbuild could not bundle the page for the browser").toBeUndefined();
		expect(bundle?.code).toContain("runStreamCases");
	});

	it.for(RUNTIME_APIS)("%s streams text and a tool call from another origin", (api, context) => {
		if (!summaries) {
			if (bundleError) throw new Error(`The page could not be bundled: ${bundleError}`);
			console.warn(`Skipping the Chromium stream of ${api}: ${skipReason}`);
			context.skip();
			return;
		}
		expectStreamedAnswer(summaries.get(api));
		servers?.expectOneStreamingRequest(api);
	});

	it("sends the preflight CORS asks for, with Anthropic's browser opt-in header", (context) => {
		if (!summaries) {
			context.skip();
			return;
		}
		const requested = servers?.preflights("anthropic-messages")[0]?.headers["access-control-request-headers"];
		expect(String(requested).split(",")).toContain("anthropic-dangerous-direct-browser-access");
		expect(pageErrors).toEqual([]);
	});
});
