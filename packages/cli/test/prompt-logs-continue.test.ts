// `keel "text"` and `cat file | keel` (prompt is the default command), every prompt and answer
// logged as a private session with its model, usage, cost and duration, `keel logs` listing,
// searching, showing, printing JSON and turning logging off and on, and -c / --cid continuing a
// conversation. Through pipes, against the wire-test server (a real OpenAI-compatible server on
// 127.0.0.1).
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { WireTestServer } from "@keel/ai/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { chatCompletionsResponse } from "./helpers/chat-completions-stream.js";
import { createTemporaryHome, isolatedEnvironment, runKeel } from "./helpers/run-keel.js";

let server: WireTestServer;
beforeAll(async () => {
	server = await WireTestServer.start();
});
afterAll(async () => {
	await server.close();
});
beforeEach(() => server.reset());

interface ChatRequest {
	model: string;
	messages: { role: string; content: unknown }[];
}

const requestMessages = (index: number) => (server.requests[index].json as ChatRequest).messages;

function serverEnvironment(home = createTemporaryHome()) {
	return isolatedEnvironment(home, { KEEL_BASE_URL: server.url, KEEL_MODEL: "test-model" });
}

interface LogEntryJson {
	conversationId: string;
	prompt: string;
	response: string;
	model: string;
	usage: { input: number; output: number; cost: { total: number } };
	durationMs: number;
	timestamp: number;
}

async function logEntries(env: Record<string, string>, ...flags: string[]): Promise<LogEntryJson[]> {
	const result = await runKeel(["logs", "--json", ...flags], { env });
	expect(result.exitCode).toBe(0);
	return JSON.parse(result.stdout) as LogEntryJson[];
}

describe("prompt is the default command", () => {
	it('keel "text" answers, and so does keel with piped input and no arguments', async () => {
		server.enqueue(
			chatCompletionsResponse({ text: ["From the argument."] }),
			chatCompletionsResponse({ text: ["From the pipe."] }),
		);
		const env = serverEnvironment();
		const argument = await runKeel(["Say something"], { env });
		expect(argument.exitCode).toBe(0);
		expect(argument.stdout).toBe("From the argument.\n");
		expect(requestMessages(0)).toEqual([{ role: "user", content: "Say something" }]);

		const piped = await runKeel([], { env, input: "Piped question\n" });
		expect(piped.exitCode).toBe(0);
		expect(piped.stdout).toBe("From the pipe.\n");
		expect(requestMessages(1)).toEqual([{ role: "user", content: "Piped question" }]);
	});

	it("flags before the text select the model and system prompt without naming the command", async () => {
		server.enqueue(chatCompletionsResponse({ text: ["ok"] }));
		const env = isolatedEnvironment(createTemporaryHome());
		const result = await runKeel(["-m", "flag-model", "--base-url", server.url, "-s", "Be brief.", "hi"], { env });
		expect(result.exitCode).toBe(0);
		expect((server.lastRequest!.json as ChatRequest).model).toBe("flag-model");
		expect(requestMessages(0)[0]).toEqual({ role: "system", content: "Be brief." });
	});

	it("an empty pipe and no arguments is a usage error that says how to prompt", async () => {
		const result = await runKeel([], { env: serverEnvironment() });
		expect(result.exitCode).toBe(2);
		expect(result.stderr).toContain('no prompt: give the text as an argument (keel "…") or pipe it on stdin');
	});
});

describe("keel logs", () => {
	it("logs every one-shot prompt with model, usage, cost and duration, in private files", async () => {
		const home = createTemporaryHome();
		const env = serverEnvironment(home);
		server.enqueue(
			chatCompletionsResponse({ text: ["Paris."], promptTokens: 20, completionTokens: 3 }),
			chatCompletionsResponse({ text: ["Rome."] }),
		);
		await runKeel(["Capital of France?"], { env });
		await runKeel(["Capital of Italy?"], { env });

		const entries = await logEntries(env);
		expect(entries.map((entry) => [entry.prompt, entry.response])).toEqual([
			["Capital of Italy?", "Rome."],
			["Capital of France?", "Paris."],
		]);
		expect(entries[1].model).toBe("custom/test-model");
		expect(entries[1].usage.input).toBe(20);
		expect(entries[1].usage.output).toBe(3);
		expect(entries[1].usage.cost.total).toBe(0);
		expect(typeof entries[1].durationMs).toBe("number");
		expect(entries[1].durationMs).toBeGreaterThanOrEqual(0);
		// Two one-shot prompts: two conversations.
		expect(new Set(entries.map((entry) => entry.conversationId)).size).toBe(2);

		const sessions = join(home, ".keel", "sessions");
		expect(statSync(join(home, ".keel")).mode & 0o777).toBe(0o700);
		expect(statSync(sessions).mode & 0o777).toBe(0o700);
		for (const file of readdirSync(sessions)) expect(statSync(join(sessions, file)).mode & 0o777).toBe(0o600);

		expect((await runKeel(["logs", "-r"], { env })).stdout).toBe("Rome.\n");
		expect((await runKeel(["logs", "-r", "-q", "France"], { env })).stdout).toBe("Paris.\n");

		const text = await runKeel(["logs"], { env });
		expect(text.stdout).toMatch(/custom\/test-model · 20 in, 3 out · \$0 · \d+ ms/);
		expect(text.stdout).toContain("> Capital of France?\n\nParis.\n");
	});

	it("searches by text, model and date, limits the count, and shows one conversation", async () => {
		const env = isolatedEnvironment(createTemporaryHome(), { KEEL_BASE_URL: server.url });
		server.enqueue(
			chatCompletionsResponse({ text: ["Bonjour."] }),
			chatCompletionsResponse({ text: ["Ciao."] }),
			chatCompletionsResponse({ text: ["Hallo."] }),
		);
		await runKeel(["-m", "french-model", "Hello in French"], { env });
		await runKeel(["-m", "italian-model", "Hello in Italian"], { env });
		await runKeel(["-m", "italian-model", "-c", "And in German?"], { env });

		expect((await logEntries(env, "-q", "bonjour")).map((entry) => entry.response)).toEqual(["Bonjour."]);
		expect((await logEntries(env, "-m", "italian")).map((entry) => entry.response)).toEqual(["Hallo.", "Ciao."]);
		expect(await logEntries(env, "-n", "1")).toHaveLength(1);
		expect(await logEntries(env, "-n", "0")).toHaveLength(3);
		expect(await logEntries(env, "--since", "2000-01-01", "-n", "0")).toHaveLength(3);
		expect(await logEntries(env, "--until", "2000-01-01")).toHaveLength(0);

		const italian = (await logEntries(env, "-m", "italian"))[0].conversationId;
		const shown = await runKeel(["logs", "show", italian], { env });
		expect(shown.exitCode).toBe(0);
		// A whole conversation, oldest first.
		expect(shown.stdout.indexOf("> Hello in Italian")).toBeLessThan(shown.stdout.indexOf("> And in German?"));
		expect(shown.stdout).not.toContain("French");
	});

	it("logs off stops logging (--log overrides it), logs on starts again, --no-log skips one", async () => {
		const env = serverEnvironment();
		server.enqueue(...["one", "two", "three", "four"].map((text) => chatCompletionsResponse({ text: [text] })));
		expect((await runKeel(["logs", "off"], { env })).exitCode).toBe(0);
		expect((await runKeel(["logs", "status"], { env })).stdout).toMatch(/^Logging is off\. 0 conversations/);
		await runKeel(["not logged"], { env });
		await runKeel(["--log", "logged anyway"], { env });
		expect((await runKeel(["logs", "on"], { env })).exitCode).toBe(0);
		await runKeel(["--no-log", "skipped"], { env });
		await runKeel(["logged again"], { env });
		expect((await logEntries(env, "-n", "0")).map((entry) => entry.prompt)).toEqual(["logged again", "logged anyway"]);
	});

	it("bad input: an unknown conversation, subcommand or date exits 2 and says what to do", async () => {
		const env = serverEnvironment();
		const unknown = await runKeel(["logs", "show", "nope"], { env });
		expect(unknown.exitCode).toBe(2);
		expect(unknown.stderr).toContain('no conversation "nope" (keel logs lists them)');
		const subcommand = await runKeel(["logs", "clear"], { env });
		expect(subcommand.exitCode).toBe(2);
		expect(subcommand.stderr).toContain("expected list, show, off, on or status");
		const date = await runKeel(["logs", "--since", "yesterday-ish"], { env });
		expect(date.exitCode).toBe(2);
		expect(date.stderr).toContain("--since expects a date such as 2026-11-27");
	});
});

describe("-c and --cid continue a conversation", () => {
	it("-c sends the last conversation's history with its model and system prompt; --cid picks one", async () => {
		const env = isolatedEnvironment(createTemporaryHome(), { KEEL_BASE_URL: server.url });
		server.enqueue(
			chatCompletionsResponse({ text: ["Hi, Ada."] }),
			chatCompletionsResponse({ text: ["Hi, Bob."] }),
			chatCompletionsResponse({ text: ["You are Bob."] }),
			chatCompletionsResponse({ text: ["You are Ada."] }),
		);
		await runKeel(["-m", "first-model", "-s", "Be brief.", "I am Ada."], { env });
		await runKeel(["-m", "second-model", "I am Bob."], { env });
		const continued = await runKeel(["-c", "Who am I?"], { env });
		expect(continued.exitCode).toBe(0);
		expect(continued.stdout).toBe("You are Bob.\n");
		expect((server.requests[2].json as ChatRequest).model).toBe("second-model");
		expect(requestMessages(2)).toEqual([
			{ role: "user", content: "I am Bob." },
			{ role: "assistant", content: "Hi, Bob." },
			{ role: "user", content: "Who am I?" },
		]);

		const ada = (await logEntries(env, "-q", "Ada", "-n", "0")).at(-1)!.conversationId;
		const byId = await runKeel(["--cid", ada, "Who am I?"], { env });
		expect(byId.stdout).toBe("You are Ada.\n");
		expect((server.requests[3].json as ChatRequest).model).toBe("first-model");
		expect(requestMessages(3).map((message) => message.content)).toEqual([
			"Be brief.",
			"I am Ada.",
			"Hi, Ada.",
			"Who am I?",
		]);
		// Continuing adds to the same conversation: still two.
		const conversations = new Set((await logEntries(env, "-n", "0")).map((entry) => entry.conversationId));
		expect(conversations.size).toBe(2);
	});

	it("with nothing to continue, or an unknown id, exits 2 and says what to do", async () => {
		const env = serverEnvironment();
		const nothing = await runKeel(["-c", "hello"], { env });
		expect(nothing.exitCode).toBe(2);
		expect(nothing.stderr).toContain("there is no logged conversation to continue yet");
		const unknown = await runKeel(["--cid", "nope", "hello"], { env });
		expect(unknown.exitCode).toBe(2);
		expect(unknown.stderr).toContain('no conversation "nope" (keel logs lists them)');
		const both = await runKeel(["-c", "--cid", "x", "hello"], { env });
		expect(both.exitCode).toBe(2);
		expect(server.requests).toHaveLength(0);
	});
});
