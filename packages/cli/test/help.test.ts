// Discoverability: `keel --help` lists the commands, and every command answers --help with its
// usage and examples.
import { describe, expect, it } from "vitest";
import { runKeel } from "./helpers/run-keel.js";

const COMMAND_NAMES = [
	"prompt",
	"chat",
	"models",
	"logs",
	"sessions",
	"aliases",
	"templates",
	"tools",
	"keys",
	"login",
	"logout",
];

describe("help", () => {
	it("keel --help lists every command", async () => {
		const result = await runKeel(["--help"]);
		expect(result.exitCode).toBe(0);
		for (const name of COMMAND_NAMES) expect(result.stdout).toMatch(new RegExp(`^  ${name} `, "m"));
	});

	it.each(COMMAND_NAMES)("keel %s --help shows the usage and examples", async (name) => {
		const result = await runKeel([name, "--help"]);
		expect(result.exitCode).toBe(0);
		// prompt is the default command: its usage shows the name as optional.
		expect(result.stdout).toMatch(new RegExp(`^Usage: keel (\\[${name}\\]|${name})`));
		expect(result.stdout).toContain("Examples:");
		expect(result.stdout).toMatch(new RegExp(`^  keel ${name}`, "m"));
	});

	it("keel chat's /help lists the commands and says what typing during an answer and Ctrl-C do", async () => {
		const result = await runKeel(["chat", "-m", "test-model", "--base-url", "http://127.0.0.1:9/v1"], {
			input: "/help\n",
		});
		expect(result.exitCode).toBe(0);
		expect(result.stdout).toMatch(/^ {2}\/model \[provider\/id\]/);
		expect(result.stdout).toContain("Enter sends the line\nand cuts the answer off");
		expect(result.stdout).toContain("A /command\ntyped then runs once the answer has ended.");
		expect(result.stdout).toContain("Ctrl-C stops the answer being written");
		expect(result.stdout).not.toContain("Options:");
	});

	it("a first word that is not a command is a prompt, as in llm", async () => {
		// No model is configured here, so the prompt stops at choosing one: the message is prompt's.
		const result = await runKeel(["what is SSE"]);
		expect(result.exitCode).toBe(2);
		expect(result.stderr).toContain("keel prompt: no model chosen");
	});

	it("keel --version prints the package version", async () => {
		const result = await runKeel(["--version"]);
		expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
	});
});
