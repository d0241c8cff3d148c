// End to end in headless Chromium: a React page built on the AI SDK's `useChat` hook, reading the UI
// message stream from a server that runs streamText on a Keel model (the faux provider). The test
// types a prompt, sends it, and checks that the streamed answer (and a tool call's result) appears
// in the DOM and that the conversation reached Keel.
//
// It needs /usr/bin/chromium (scripts/ensure-browser.mjs installs it). Without a browser that
// launches, the test is skipped with a message that says why.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { UserMessage } from "@keel/ai";
import {
	type FauxProviderRegistration,
	fauxAssistantMessage,
	fauxToolCall,
	registerFauxProvider,
} from "@keel/ai/testing";
import { keelLanguageModel } from "@keel/ai-sdk";
import { build } from "esbuild";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChatServer, startChatServer } from "./browser/chat-server.js";

const CHROMIUM_PATH = process.env.KEEL_CHROMIUM_PATH ?? "/usr/bin/chromium";
const CHROMIUM_ARGS = [
	"--headless",
	"--no-sandbox",
	"--disable-gpu",
	"--no-first-run",
	"--disable-background-networking",
];

let browser: Browser | undefined;
let skipReason: string | undefined;
let faux: FauxProviderRegistration;
let server: ChatServer | undefined;
let script = "";

beforeAll(async () => {
	// The page's script is bundled whether or not a browser exists: bundling is itself under test.
	const bundled = await build({
		entryPoints: [fileURLToPath(new URL("./browser/chat-page.tsx", import.meta.url))],
		bundle: true,
		format: "esm",
		platform: "browser",
		target: "es2022",
		jsx: "automatic",
		// React picks its production build from NODE_ENV, as every bundler for the browser sets it.
		define: { "process.env.NODE_ENV": '"production"' },
		write: false,
		logLevel: "silent",
	});
	script = bundled.outputFiles[0].text;
	faux = registerFauxProvider({ chunkCharacters: 3 });
	server = await startChatServer(script, keelLanguageModel(faux.getModel()));
	if (!existsSync(CHROMIUM_PATH)) {
		skipReason = `${CHROMIUM_PATH} is missing: run "node scripts/ensure-browser.mjs"`;
		return;
	}
	try {
		browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
	} catch (error) {
		skipReason = `Chromium at ${CHROMIUM_PATH} did not launch: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`;
	}
}, 120_000);

afterAll(async () => {
	await browser?.close();
	await server?.close();
	faux?.unregister();
});

describe("a useChat page streaming from a Keel model through the AI SDK", () => {
	it("the page's bundle holds the AI SDK's client and no Node built-ins", () => {
		expect(script).toContain("/api/chat");
		expect(script).not.toMatch(/^import[^\n]* from "node:|import\("node:|require\("node:/m);
	});

	it("shows the streamed answer in the DOM, across two turns", async (context) => {
		if (!browser || !server) {
			console.warn(`Skipping the browser test: ${skipReason}`);
			context.skip();
			return;
		}
		faux.setResponses(["Keel streams through the AI SDK.", "Second answer."]);
		const page = await browser.newPage();
		const pageErrors: string[] = [];
		page.on("pageerror", (error) => pageErrors.push(error.message));
		try {
			await page.goto(server.url);
			await page.fill("#prompt", "Hello?");
			await page.click("#send");
			await page.locator(".message.assistant", { hasText: "Keel streams through the AI SDK." }).waitFor();
			await page.locator("#send:not([disabled])").waitFor();
			await page.fill("#prompt", "Again?");
			await page.click("#send");
			await page.locator(".message.assistant", { hasText: "Second answer." }).waitFor();
			expect(await page.locator(".message.user").allTextContents()).toEqual(["Hello?", "Again?"]);
			expect(pageErrors).toEqual([]);
		} finally {
			await page.close();
		}
		// The second request carried the whole conversation to the Keel model.
		const second = faux.state.requests[1].context.messages;
		expect(second.map((message) => message.role)).toEqual(["user", "assistant", "user"]);
		expect((second[2] as UserMessage).content).toEqual([{ type: "text", text: "Again?" }]);
	}, 60_000);

	it("shows a tool call's result and the answer that follows it, from one request", async (context) => {
		if (!browser || !server) {
			console.warn(`Skipping the browser test: ${skipReason}`);
			context.skip();
			return;
		}
		faux.setResponses([
			fauxAssistantMessage([fauxToolCall("weather", { city: "Oslo" })], { stopReason: "toolUse" }),
			"Sunny in Oslo.",
		]);
		const before = faux.state.requests.length;
		const page = await browser.newPage();
		const pageErrors: string[] = [];
		page.on("pageerror", (error) => pageErrors.push(error.message));
		try {
			await page.goto(server.url);
			await page.fill("#prompt", "Weather in Oslo?");
			await page.click("#send");
			const answer = page.locator(".message.assistant", { hasText: "Sunny in Oslo." });
			await answer.waitFor();
			expect(await answer.textContent()).toBe('[weather → {"city":"Oslo","forecast":"sunny"}]Sunny in Oslo.');
			expect(pageErrors).toEqual([]);
		} finally {
			await page.close();
		}
		// The tool's result went back to the Keel model in the second step.
		const followUp = faux.state.requests[before + 1].context.messages;
		expect(followUp.map((message) => message.role)).toEqual(["user", "assistant", "toolResult"]);
	}, 60_000);
});
