// `keel prompt` used from a pipe, against a real OpenAI-compatible HTTP server on 127.0.0.1 (the
// wire-test server): what reaches the server, what lands on stdout and stderr, the exit codes.
import { spawn } from "node:child_process";
import { WireTestServer } from "@keel/ai/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { chatCompletionsResponse } from "./helpers/chat-completions-stream.js";
import { CLI_PATH, createTemporaryHome, isolatedEnvironment, runKeel } from "./helpers/run-keel.js";

let server: WireTestServer;
beforeAll(async () => {
	server = await WireTestServer.start();
});
afterAll(async () => {
	await server.close();
});
beforeEach(() => server.reset());

const environment = (extra: Record<string, string> = {}) => isolatedEnvironment(createTemporaryHome(), extra);
const serverFlags = () => ["-m", "test-model", "--base-url", server.url];

interface ChatRequest {
	model: string;
	messages: { role: string; content: unknown }[];
	max_tokens?: number;
}

describe("keel prompt from a pipe", () => {
	it("sends the piped text first, then the argument, and prints only the answer on stdout", async () => {
		server.enqueue(chatCompletionsResponse({ reasoning: ["Let me think."], text: ["Hello", ", pipe!"] }));
		const result = await runKeel(["prompt", ...serverFlags(), "Summarise this"], {
			input: "line one\nline two\n",
			env: environment(),
		});
		expect(result.stderr).not.toContain("Error");
		expect(result.exitCode).toBe(0);
		// Piped: the answer alone, no thinking, no escape codes, ending with a newline.
		expect(result.stdout).toBe("Hello, pipe!\n");
		const request = server.lastRequest!.json as ChatRequest;
		expect(request.model).toBe("test-model");
		expect(request.messages).toEqual([{ role: "user", content: "line one\nline two\n\nSummarise this" }]);
		// Usage and cost on stderr.
		expect(result.stderr).toContain("12 in, 7 out · $0");
	});

	it("takes the prompt from stdin alone, and the system prompt and max tokens from flags", async () => {
		server.enqueue(chatCompletionsResponse({ text: ["ok"] }));
		const result = await runKeel(["prompt", ...serverFlags(), "-s", "Be terse.", "--max-tokens", "50"], {
			input: "What is SSE?",
			env: environment(),
		});
		expect(result.exitCode).toBe(0);
		const request = server.lastRequest!.json as ChatRequest;
		expect(request.messages).toEqual([
			{ role: "system", content: "Be terse." },
			{ role: "user", content: "What is SSE?" },
		]);
		expect(request.max_tokens).toBe(50);
	});

	it("reads the model and server from KEEL_MODEL and KEEL_BASE_URL", async () => {
		server.enqueue(chatCompletionsResponse({ text: ["from the environment"] }));
		const result = await runKeel(["prompt", "hi"], {
			env: environment({ KEEL_MODEL: "env-model", KEEL_BASE_URL: server.url }),
		});
		expect(result.stdout).toBe("from the environment\n");
		expect((server.lastRequest!.json as ChatRequest).model).toBe("env-model");
	});

	it("calls a --base-url server with no key unless one is given, and with KEEL_API_KEY or --key when it is", async () => {
		server.enqueue(chatCompletionsResponse({ text: ["a"] }), chatCompletionsResponse({ text: ["b"] }));
		await runKeel(["prompt", ...serverFlags(), "hi"], { env: environment() });
		expect(server.lastRequest!.headers.authorization).toBeUndefined();
		await runKeel(["prompt", ...serverFlags(), "hi"], { env: environment({ KEEL_API_KEY: "sk-local-test" }) });
		expect(server.lastRequest!.headers.authorization).toBe("Bearer sk-local-test");
	});

	it("prints every event as one JSON line with --json, without the partial message", async () => {
		server.enqueue(chatCompletionsResponse({ reasoning: ["Hmm."], text: ["Hi", " there"] }));
		const result = await runKeel(["prompt", ...serverFlags(), "--json", "hi"], { env: environment() });
		expect(result.exitCode).toBe(0);
		const events = result.stdout
			.trim()
			.split("\n")
			.map((line) => JSON.parse(line) as Record<string, unknown>);
		expect(events[0].type).toBe("start");
		expect(events.at(-1)?.type).toBe("done");
		expect(events.some((event) => "partial" in event)).toBe(false);
		const deltas = (type: string) =>
			events
				.filter((event) => event.type === type)
				.map((event) => event.delta)
				.join("");
		expect(deltas("thinking_delta")).toBe("Hmm.");
		expect(deltas("text_delta")).toBe("Hi there");
		expect((events.at(-1)!.message as { usage: { input: number } }).usage.input).toBe(12);
	});

	it("uses the nearest reasoning level the model supports, and says so on stderr", async () => {
		server.enqueue(chatCompletionsResponse({ text: ["ok"] }));
		const result = await runKeel(["prompt", ...serverFlags(), "--reasoning", "high", "hi"], { env: environment() });
		expect(result.exitCode).toBe(0);
		// A custom model is defined without reasoning: "off" is the only level it has.
		expect(result.stderr).toContain('custom/test-model does not support reasoning "high"; using "off"');
		expect((server.lastRequest!.json as Record<string, unknown>).reasoning_effort).toBeUndefined();
	});

	it("sends --reasoning max as the model's top effort (Kimi K3: reasoning_effort max)", async () => {
		server.enqueue(chatCompletionsResponse({ text: ["ok"] }));
		const result = await runKeel(
			["prompt", "-m", "moonshotai/kimi-k3", "--base-url", server.url, "--key", "sk-test", "--reasoning", "max", "hi"],
			{ env: environment() },
		);
		expect(result.exitCode, result.stderr).toBe(0);
		expect(result.stderr).not.toContain("does not support reasoning");
		expect((server.lastRequest!.json as Record<string, unknown>).reasoning_effort).toBe("max");
	});

	it("exits 1 with the server's error message on stderr when the call fails", async () => {
		server.enqueue({ status: 404, body: { error: { message: "model 'test-model' not found" } } });
		const result = await runKeel(["prompt", ...serverFlags(), "hi"], { env: environment() });
		expect(result.exitCode).toBe(1);
		expect(result.stdout).toBe("");
		expect(result.stderr).toMatch(/^Error: .*model 'test-model' not found/m);
	});

	it("exits 2 with a clear message for a missing prompt, an unknown model or a bad flag value", async () => {
		const noPrompt = await runKeel(["prompt", ...serverFlags()], { env: environment() });
		expect(noPrompt.exitCode).toBe(2);
		expect(noPrompt.stderr).toContain("no prompt: give the text as an argument");

		const unknownModel = await runKeel(["prompt", "-m", "anthropic/claude-nonexistent", "hi"], { env: environment() });
		expect(unknownModel.exitCode).toBe(2);
		expect(unknownModel.stderr).toContain('unknown model "anthropic/claude-nonexistent"');
		expect(unknownModel.stderr).toContain("keel models anthropic");

		const badLevel = await runKeel(["prompt", ...serverFlags(), "--reasoning", "extreme", "hi"], {
			env: environment(),
		});
		expect(badLevel.exitCode).toBe(2);
		expect(badLevel.stderr).toContain(
			'--reasoning expects one of off, minimal, low, medium, high, xhigh, max, got "extreme"',
		);

		const noModel = await runKeel(["prompt", "hi"], { env: environment() });
		expect(noModel.exitCode).toBe(2);
		expect(noModel.stderr).toContain("no model chosen");
		expect(server.requests).toHaveLength(0);
	});

	it("says which variable to set, and how to save a key, when a catalogue provider has none", async () => {
		const result = await runKeel(["prompt", "-m", "anthropic/claude-sonnet-4-5", "hi"], { env: environment() });
		expect(result.exitCode).toBe(1);
		expect(result.stderr).toContain(
			'No API key for provider "anthropic": set ANTHROPIC_OAUTH_TOKEN or ANTHROPIC_API_KEY or save one with `keel login anthropic`, or pass --key, or set KEEL_API_KEY',
		);
		expect(result.stderr).not.toContain("options.apiKey");
	});

	it("stops the answer on Ctrl-C (SIGINT): the text so far stays on stdout, exit code 130", async () => {
		server.enqueue(chatCompletionsResponse({ text: ["partial answer"], unfinished: true }, { stall: true }));
		const child = spawn(process.execPath, [CLI_PATH, "prompt", ...serverFlags(), "hi"], {
			env: environment(),
			stdio: ["pipe", "pipe", "pipe"],
		});
		child.stdin.end();
		let stdout = "";
		let stderr = "";
		child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
			stderr += chunk;
		});
		await new Promise<void>((resolve) => {
			child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
				stdout += chunk;
				if (stdout.includes("partial answer")) resolve();
			});
		});
		child.kill("SIGINT");
		const exitCode = await new Promise<number | null>((resolve) => child.on("close", resolve));
		expect(exitCode).toBe(130);
		expect(stdout).toBe("partial answer\n");
		expect(stderr).toContain("Aborted.");
	});
});
