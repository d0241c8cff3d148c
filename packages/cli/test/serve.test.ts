// `keel serve` as a real process on 127.0.0.1 (port 0: the system picks a free one), with the
// official `openai` SDK as the client and the wire-test server behind it: chat completions (whole
// and streamed) and the model list with the token, 401 without it, 403 for a model not allowed,
// a printed token when none is given, and a clean exit on SIGTERM and SIGINT.
import { type ChildProcess, spawn } from "node:child_process";
import { WireTestServer } from "@keel/ai/testing";
import OpenAI from "openai";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { chatCompletionsResponse } from "./helpers/chat-completions-stream.js";
import { assertCliBuilt, CLI_PATH, createTemporaryHome, isolatedEnvironment, runKeel } from "./helpers/run-keel.js";

let upstream: WireTestServer;
beforeAll(async () => {
	assertCliBuilt();
	upstream = await WireTestServer.start();
});
afterAll(async () => {
	await upstream.close();
});
beforeEach(() => upstream.reset());

interface Served {
	process: ChildProcess;
	baseURL: string;
	stderr: () => string;
	exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const running: Served[] = [];
afterEach(() => {
	for (const served of running.splice(0)) if (served.process.exitCode === null) served.process.kill("SIGKILL");
});

/** Starts `keel serve` and resolves once it printed its base URL. */
async function startServe(args: string[], extraEnvironment: Record<string, string> = {}): Promise<Served> {
	const child = spawn(process.execPath, [CLI_PATH, "serve", "--port", "0", ...args], {
		env: isolatedEnvironment(createTemporaryHome(), { KEEL_API_KEY: "upstream-key", ...extraEnvironment }),
		stdio: ["pipe", "pipe", "pipe"],
	});
	let stderr = "";
	const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
		child.once("exit", (code, signal) => resolve({ code, signal })),
	);
	const baseURL = await new Promise<string>((resolve, reject) => {
		child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
			stderr += chunk;
			const match = /OpenAI base URL: (\S+)/.exec(stderr);
			if (match) resolve(match[1] as string);
		});
		void exited.then(({ code }) => reject(new Error(`keel serve exited with ${code}:\n${stderr}`)));
	});
	const served = { process: child, baseURL, stderr: () => stderr, exited };
	running.push(served);
	return served;
}

const allowTestModel = () => ["--allow", "test-model", "--base-url", upstream.url];

describe("keel serve", () => {
	it("answers the openai SDK's chat completion, whole and streamed, from the model behind it", async () => {
		const served = await startServe([...allowTestModel(), "--token", "local-token"]);
		const client = new OpenAI({ baseURL: served.baseURL, apiKey: "local-token" });
		upstream.enqueue(chatCompletionsResponse({ text: ["Hello ", "there."] }));
		const whole = await client.chat.completions.create({
			model: "custom/test-model",
			messages: [{ role: "user", content: "Hi" }],
		});
		expect(whole.choices[0]?.message.content).toBe("Hello there.");
		// The upstream call carried the server's key, never the client's token.
		expect(upstream.requests[0]?.headers.authorization).toBe("Bearer upstream-key");

		upstream.enqueue(chatCompletionsResponse({ text: ["One ", "two."] }));
		const stream = await client.chat.completions.create({
			model: "custom/test-model",
			messages: [{ role: "user", content: "Count" }],
			stream: true,
		});
		let text = "";
		for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? "";
		expect(text).toBe("One two.");

		const models = await client.models.list();
		expect(models.data.map((model) => model.id)).toEqual(["custom/test-model"]);
		expect(served.stderr()).not.toContain("local-token");
	});

	it("refuses a wrong token with 401 and a model not allowed with 403", async () => {
		const served = await startServe([...allowTestModel(), "--token", "local-token"]);
		const wrong = new OpenAI({ baseURL: served.baseURL, apiKey: "not-the-token", maxRetries: 0 });
		await expect(
			wrong.chat.completions.create({ model: "custom/test-model", messages: [{ role: "user", content: "Hi" }] }),
		).rejects.toMatchObject({ status: 401 });
		const right = new OpenAI({ baseURL: served.baseURL, apiKey: "local-token", maxRetries: 0 });
		await expect(
			right.chat.completions.create({ model: "openai/gpt-4o", messages: [{ role: "user", content: "Hi" }] }),
		).rejects.toMatchObject({ status: 403 });
		expect(upstream.requests).toHaveLength(0);
	});

	it("without --token or KEEL_PROXY_TOKEN prints a new token, which works; KEEL_PROXY_TOKEN is used and not printed", async () => {
		const generated = await startServe(allowTestModel());
		const token = /Token \(the API key clients send\): (\S+)/.exec(generated.stderr())?.[1];
		expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
		upstream.enqueue(chatCompletionsResponse({ text: ["ok"] }));
		const client = new OpenAI({ baseURL: generated.baseURL, apiKey: token as string });
		const answer = await client.chat.completions.create({
			model: "custom/test-model",
			messages: [{ role: "user", content: "Hi" }],
		});
		expect(answer.choices[0]?.message.content).toBe("ok");

		const fromEnvironment = await startServe(allowTestModel(), { KEEL_PROXY_TOKEN: "env-token" });
		expect(fromEnvironment.stderr()).not.toContain("Token");
		const models = await new OpenAI({ baseURL: fromEnvironment.baseURL, apiKey: "env-token" }).models.list();
		expect(models.data).toHaveLength(1);
	});

	it.each(["SIGTERM", "SIGINT"] as const)("stops on %s: exit code 0, the port closed", async (signal) => {
		const served = await startServe([...allowTestModel(), "--token", "t"]);
		served.process.kill(signal);
		expect(await served.exited).toEqual({ code: 0, signal: null });
		expect(served.stderr()).toContain("Stopped.");
		await expect(fetch(`${served.baseURL}/models`)).rejects.toThrow();
	});

	it("a bad --port exits 2; a port in use exits 1 and says to try another", async () => {
		const env = isolatedEnvironment(createTemporaryHome());
		const badPort = await runKeel(["serve", "--port", "99999"], { env });
		expect(badPort.exitCode).toBe(2);
		expect(badPort.stderr).toContain("--port expects a whole number from 0 to 65535");
		const served = await startServe([...allowTestModel(), "--token", "t"]);
		const port = new URL(served.baseURL).port;
		const inUse = await runKeel(["serve", "--port", port, ...allowTestModel(), "--token", "t"], { env });
		expect(inUse.exitCode).toBe(1);
		expect(inUse.stderr).toContain("try another --port");
	});
});
