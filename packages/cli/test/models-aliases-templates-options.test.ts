// The stored default model, aliases, templates and -o model options, through pipes against the
// wire-test server: what reaches the server, what is stored, and the usage errors (exit 2) for a
// missing template, an unknown alias, an option the model does not take, an unknown --api. And
// `keel models` within 80 columns unless --wide or the terminal is wider.
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { getModels } from "@keel/ai";
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
	temperature?: number;
	max_tokens?: number;
}

const lastRequest = () => server.lastRequest!.json as ChatRequest;

describe("the default model and aliases", () => {
	it("keel models default stores a model every prompt then uses; an alias stands for its model", async () => {
		const home = createTemporaryHome();
		const env = isolatedEnvironment(home);
		const set = await runKeel(["aliases", "set", "fast", "anthropic/claude-haiku-4-5"], { env });
		expect(set.exitCode).toBe(0);
		expect((await runKeel(["aliases"], { env })).stdout).toMatch(/^fast\s+anthropic\/claude-haiku-4-5$/m);
		expect(JSON.parse((await runKeel(["aliases", "--json"], { env })).stdout)).toEqual({
			fast: "anthropic/claude-haiku-4-5",
		});

		const stored = await runKeel(["models", "default", "fast"], { env });
		expect(stored.exitCode).toBe(0);
		expect(stored.stderr).toContain("Default model: fast (anthropic/claude-haiku-4-5)");
		expect((await runKeel(["models", "default"], { env })).stdout).toBe("fast\n");
		expect(statSync(join(home, ".keel", "config.json")).mode & 0o777).toBe(0o600);

		// A catalogue model served by the test server as a proxy of its provider (KEEL_BASE_URL), so
		// nothing leaves the machine: an alias, then the default through that alias.
		const local = getModels("deepseek" as never).find((candidate) => candidate.api === "openai-completions")!;
		expect((await runKeel(["aliases", "set", "local", `deepseek/${local.id}`], { env })).exitCode).toBe(0);
		const proxied = { ...env, KEEL_BASE_URL: server.url, KEEL_API_KEY: "sk-test" };
		server.enqueue(
			chatCompletionsResponse({ text: ["via alias"] }),
			chatCompletionsResponse({ text: ["via default"] }),
		);
		const viaAlias = await runKeel(["-m", "local", "hello"], { env: proxied });
		expect(viaAlias.stdout).toBe("via alias\n");
		expect(lastRequest().model).toBe(local.id);

		expect((await runKeel(["models", "default", "local"], { env })).exitCode).toBe(0);
		const viaDefault = await runKeel(["hello"], { env: proxied });
		expect(viaDefault.stdout).toBe("via default\n");
		expect(lastRequest().model).toBe(local.id);

		expect((await runKeel(["aliases", "remove", "local"], { env })).exitCode).toBe(0);
		expect(JSON.parse(readFileSync(join(home, ".keel", "config.json"), "utf8")).aliases).toEqual({
			fast: "anthropic/claude-haiku-4-5",
		});
		const unset = await runKeel(["models", "default", "--unset"], { env });
		expect(unset.exitCode).toBe(0);
		const noModel = await runKeel(["hello"], { env });
		expect(noModel.exitCode).toBe(2);
		expect(noModel.stderr).toContain("keel models default <provider/id>");
	});

	it("an unknown alias or model exits 2 and says where the names are listed", async () => {
		const env = isolatedEnvironment(createTemporaryHome());
		const remove = await runKeel(["aliases", "remove", "nope"], { env });
		expect(remove.exitCode).toBe(2);
		expect(remove.stderr).toContain('no alias "nope" (there are no aliases)');
		const setUnknown = await runKeel(["aliases", "set", "fast", "no-such-model"], { env });
		expect(setUnknown.exitCode).toBe(2);
		expect(setUnknown.stderr).toContain('unknown model "no-such-model"');
		const prompt = await runKeel(["-m", "nope", "hello"], { env });
		expect(prompt.exitCode).toBe(2);
		expect(prompt.stderr).toContain("an alias (`keel aliases` lists them)");
		const badDefault = await runKeel(["models", "default", "nope"], { env });
		expect(badDefault.exitCode).toBe(2);
	});
});

describe("templates", () => {
	it("--save stores the system prompt, model and options without a call; -t uses them and flags override", async () => {
		const home = createTemporaryHome();
		const env = isolatedEnvironment(home, { KEEL_BASE_URL: server.url });
		const saved = await runKeel(
			["--save", "terse", "-s", "Be terse.", "-m", "template-model", "-o", "temperature", "0.3"],
			{ env },
		);
		expect(saved.exitCode).toBe(0);
		expect(saved.stderr).toContain('Saved template "terse"');
		expect(server.requests).toHaveLength(0);
		const file = join(home, ".keel", "templates", "terse.json");
		expect(statSync(file).mode & 0o777).toBe(0o600);
		expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({
			system: "Be terse.",
			model: "template-model",
			options: { temperature: "0.3" },
		});

		server.enqueue(chatCompletionsResponse({ text: ["a"] }), chatCompletionsResponse({ text: ["b"] }));
		expect((await runKeel(["-t", "terse", "hello"], { env })).exitCode).toBe(0);
		expect(lastRequest().model).toBe("template-model");
		expect(lastRequest().temperature).toBe(0.3);
		expect(lastRequest().messages[0]).toEqual({ role: "system", content: "Be terse." });

		await runKeel(["-t", "terse", "-m", "other-model", "-s", "Be kind.", "-o", "temperature", "1", "hello"], { env });
		expect(lastRequest().model).toBe("other-model");
		expect(lastRequest().temperature).toBe(1);
		expect(lastRequest().messages[0]).toEqual({ role: "system", content: "Be kind." });

		expect((await runKeel(["templates"], { env })).stdout).toContain("terse  template-model · Be terse.");
		expect((await runKeel(["templates", "remove", "terse"], { env })).exitCode).toBe(0);
		expect((await runKeel(["templates"], { env })).stderr).toContain("No templates");
	});

	it("a missing template, a bad name or nothing to save exits 2 and says what to do", async () => {
		const env = isolatedEnvironment(createTemporaryHome(), { KEEL_BASE_URL: server.url, KEEL_MODEL: "m" });
		const missing = await runKeel(["-t", "nope", "hello"], { env });
		expect(missing.exitCode).toBe(2);
		expect(missing.stderr).toContain('no template "nope" (no template is saved yet); save one with --save nope');
		const badName = await runKeel(["--save", "../evil", "-s", "x"], { env });
		expect(badName.exitCode).toBe(2);
		expect(badName.stderr).toContain("is not a template name");
		const empty = await runKeel(["--save", "empty"], { env });
		expect(empty.exitCode).toBe(2);
		expect(empty.stderr).toContain("needs something to save");
		expect(server.requests).toHaveLength(0);
	});
});

describe("-o model options", () => {
	it("sends temperature and max_tokens", async () => {
		const env = isolatedEnvironment(createTemporaryHome(), { KEEL_BASE_URL: server.url, KEEL_MODEL: "m" });
		server.enqueue(chatCompletionsResponse({ text: ["ok"] }));
		const result = await runKeel(["-o", "temperature", "0.5", "-o", "max_tokens", "77", "hello"], { env });
		expect(result.exitCode).toBe(0);
		expect(lastRequest().temperature).toBe(0.5);
		expect(lastRequest().max_tokens).toBe(77);
	});

	it("sends top_p, top_k and the other sampling keys the model's API takes as samplingParams", async () => {
		const env = isolatedEnvironment(createTemporaryHome(), { KEEL_BASE_URL: server.url, KEEL_MODEL: "m" });
		server.enqueue(chatCompletionsResponse({ text: ["ok"] }));
		const result = await runKeel(["-o", "top_p", "0.9", "-o", "top-k", "20", "-o", "seed", "7", "hello"], { env });
		expect(result.exitCode).toBe(0);
		expect(lastRequest()).toMatchObject({ top_p: 0.9, top_k: 20, seed: 7 });
	});

	it("checks each option against the model and exits 2 naming what is accepted", async () => {
		const env = isolatedEnvironment(createTemporaryHome());
		const model = getModels("anthropic").find((candidate) => candidate.id === "claude-haiku-4-5")!;
		const minP = await runKeel(["-m", "anthropic/claude-haiku-4-5", "-o", "min_p", "0.1", "hi"], { env });
		expect(minP.exitCode).toBe(2);
		expect(minP.stderr).toContain(
			"-o min_p is not an option Keel can send to anthropic/claude-haiku-4-5 (anthropic-messages): use temperature, max_tokens, reasoning, top_p, top_k",
		);
		// Claude Opus 4.7 takes no sampling parameters at all.
		const opus = await runKeel(["-m", "anthropic/claude-opus-4-7", "-o", "top_p", "0.9", "hi"], { env });
		expect(opus.exitCode).toBe(2);
		expect(opus.stderr).toContain("use temperature, max_tokens, reasoning\n".slice(0, -2));
		const word = await runKeel(["-m", "anthropic/claude-haiku-4-5", "-o", "top_k", "many", "hi"], { env });
		expect(word.exitCode).toBe(2);
		expect(word.stderr).toContain('-o top_k expects a number, got "many"');
		const tooMany = await runKeel(
			["-m", "anthropic/claude-haiku-4-5", "-o", "max_tokens", String(model.maxTokens + 1), "hi"],
			{ env },
		);
		expect(tooMany.exitCode).toBe(2);
		expect(tooMany.stderr).toContain(`from 1 to ${model.maxTokens} (the most anthropic/claude-haiku-4-5 can write)`);
		const hot = await runKeel(["-m", "anthropic/claude-haiku-4-5", "-o", "temperature", "3", "hi"], { env });
		expect(hot.exitCode).toBe(2);
		expect(hot.stderr).toContain("-o temperature expects a number from 0 to 2");
		const half = await runKeel(["-m", "anthropic/claude-haiku-4-5", "-o", "temperature"], { env });
		expect(half.exitCode).toBe(2);
		expect(half.stderr).toContain("-o takes a name and a value, e.g. -o temperature 0.2");
	});
});

describe("--api", () => {
	it("an API no provider registers exits 2 and lists the ones that exist", async () => {
		const env = isolatedEnvironment(createTemporaryHome());
		const result = await runKeel(["-m", "x", "--base-url", server.url, "--api", "no-such-api", "hi"], { env });
		expect(result.exitCode).toBe(2);
		expect(result.stderr).toContain('unknown API "no-such-api" for --api (or KEEL_API): use one of ');
		expect(result.stderr).toContain("openai-completions");
		expect(server.requests).toHaveLength(0);
	});
});

describe("keel models width", () => {
	it("piped, the table fits 80 columns and long ids get a line of their own; --wide and COLUMNS widen it", async () => {
		const env = isolatedEnvironment(createTemporaryHome());
		const narrow = await runKeel(["models", "amazon-bedrock"], { env });
		expect(narrow.exitCode).toBe(0);
		const lines = narrow.stdout.trimEnd().split("\n");
		expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(80);
		expect(lines[0].split(/\s{2,}/)).toEqual(["model", "context", "max out", "$ in/M", "$ out/M", "think", "img"]);
		// Every id is whole, on some line, so it can be copied.
		for (const model of getModels("amazon-bedrock")) {
			expect(
				lines.some((line) => line.startsWith(`amazon-bedrock/${model.id} `) || line === `amazon-bedrock/${model.id}`),
			).toBe(true);
		}

		const wide = await runKeel(["models", "amazon-bedrock", "--wide"], { env });
		expect(wide.stdout.split("\n")[0].split(/\s{2,}/)).toContain("$ cache r/M");
		expect(Math.max(...wide.stdout.split("\n").map((line) => line.length))).toBeGreaterThan(80);

		const wideTerminal = await runKeel(["models", "amazon-bedrock"], { env: { ...env, COLUMNS: "300" } });
		expect(wideTerminal.stdout).toBe(wide.stdout);
	});
});
