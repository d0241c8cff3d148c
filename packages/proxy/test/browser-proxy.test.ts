// End to end in headless Chromium: the example page (examples/web) runs an Agent whose stream
// function is streamProxy; the Node proxy handler serves it from the faux provider. The test types
// a prompt, clicks send, and checks that the tool call (run in the browser), its result and the
// streamed answer appear, and that the tool result went back through the proxy.
//
// It needs /usr/bin/chromium (scripts/ensure-browser.mjs installs it). Without a browser that
// launches, the test is skipped with a message that says why.
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
	type FauxProviderRegistration,
	fauxAssistantMessage,
	fauxText,
	fauxToolCall,
	registerFauxProvider,
} from "@keel/ai/testing";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundleExample } from "../examples/web/build.js";
import { type ExampleServer, startExampleServer } from "../examples/web/server.js";

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

let browser: Browser | undefined;
let skipReason: string | undefined;
let faux: FauxProviderRegistration;
let server: ExampleServer | undefined;
let directory: string | undefined;

beforeAll(async () => {
	// The bundle is built whether or not a browser exists: bundling is itself under test.
	directory = await mkdtemp(join(tmpdir(), "keel-browser-test-"));
	await bundleExample(directory);
	if (!existsSync(CHROMIUM_PATH)) {
		skipReason = `${CHROMIUM_PATH} is missing: run "node scripts/ensure-browser.mjs" (as root it installs the Debian chromium package)`;
		return;
	}
	try {
		browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
	} catch (error) {
		skipReason = `Chromium at ${CHROMIUM_PATH} did not launch: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`;
		return;
	}
	faux = registerFauxProvider();
	server = await startExampleServer({
		directory,
		proxy: { authenticate: (token) => token === "test-token", models: [faux.getModel()] },
	});
}, 120_000);

afterAll(async () => {
	await browser?.close();
	await server?.close();
	faux?.unregister();
	if (directory) await rm(directory, { recursive: true, force: true });
});

describe("the example bundle", () => {
	it("bundles @keel/agent-core and @keel/ai for the browser without Node built-ins", async () => {
		const bundle = await readFile(join(directory!, "app.js"), "utf8");
		expect(bundle).toContain("add_numbers");
		// esbuild writes module specifiers with double quotes; an SDK's error text mentions
		// import('node:buffer') in single quotes, which is not an import.
		expect(bundle).not.toMatch(/^import[^\n]* from "node:|import\("node:|require\("node:/m);
	});
});

describe("the proxy example page in headless Chromium", () => {
	it("streams an answer with a tool call that runs in the browser", async (context) => {
		if (!browser || !server) {
			console.warn(`Skipping the browser test: ${skipReason}`);
			context.skip();
			return;
		}
		faux.setResponses([
			fauxAssistantMessage([fauxText("Let me add those."), fauxToolCall("add_numbers", { a: 2, b: 3 }, "call_add")]),
			fauxAssistantMessage("The sum of 2 and 3 is 5."),
		]);
		const page = await browser.newPage();
		const pageErrors: string[] = [];
		page.on("pageerror", (error) => pageErrors.push(error.message));
		try {
			await page.goto(`${server.url}/?token=test-token`);
			await page.fill("#prompt", "What is 2 + 3?");
			await page.click("#send");

			await page.locator(".message.assistant .text", { hasText: "The sum of 2 and 3 is 5." }).waitFor();
			expect(await page.locator(".message.user").first().textContent()).toBe("What is 2 + 3?");
			expect(await page.locator(".tool-call").first().textContent()).toBe('add_numbers({"a":2,"b":3})');
			expect(await page.locator(".tool-result").first().textContent()).toBe("add_numbers → 5");
			await page.locator("#send:not([disabled])").waitFor();
			expect(pageErrors).toEqual([]);
		} finally {
			await page.close();
		}
		// The tool ran in the page, and its result reached the model through the proxy.
		const secondCall = faux.state.requests[1].context.messages;
		expect(secondCall.at(-1)).toMatchObject({
			role: "toolResult",
			toolCallId: "call_add",
			content: [{ type: "text", text: "5" }],
		});
		expect(faux.state.requests[0].options?.apiKey).toBeUndefined();
	}, 60_000);

	it("shows the proxy's refusal when the token is wrong", async (context) => {
		if (!browser || !server) {
			console.warn(`Skipping the browser test: ${skipReason}`);
			context.skip();
			return;
		}
		const callsBefore = faux.state.callCount;
		const page = await browser.newPage();
		try {
			await page.goto(`${server.url}/?token=wrong-token`);
			await page.fill("#prompt", "Hello?");
			await page.click("#send");
			const error = page.locator(".message.assistant .error");
			await error.waitFor();
			expect(await error.textContent()).toMatch(/^Proxy error: Invalid token \(the proxy at 127\.0\.0\.1:\d+\)$/);
		} finally {
			await page.close();
		}
		expect(faux.state.callCount).toBe(callsBefore);
	}, 60_000);
});
