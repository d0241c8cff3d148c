// Discoverability: `keel --help` lists the commands, and every command answers --help with its
// usage and examples.
import { describe, expect, it } from "vitest";
import { runKeel } from "./helpers/run-keel.js";

const COMMAND_NAMES = ["prompt", "chat", "models", "sessions", "keys", "login", "logout"];

describe("help", () => {
	it("keel --help lists every command", async () => {
		const result = await runKeel(["--help"]);
		expect(result.exitCode).toBe(0);
		for (const name of COMMAND_NAMES) expect(result.stdout).toMatch(new RegExp(`^  ${name} `, "m"));
	});

	it.each(COMMAND_NAMES)("keel %s --help shows the usage and examples", async (name) => {
		const result = await runKeel([name, "--help"]);
		expect(result.exitCode).toBe(0);
		expect(result.stdout).toMatch(new RegExp(`^Usage: keel ${name}`));
		expect(result.stdout).toContain("Examples:");
		expect(result.stdout).toMatch(new RegExp(`^  keel ${name}`, "m"));
	});

	it("an unknown command exits 2 and suggests keel prompt", async () => {
		const result = await runKeel(["what is SSE"]);
		expect(result.exitCode).toBe(2);
		expect(result.stderr).toContain('unknown command "what is SSE"');
		expect(result.stderr).toContain('keel prompt "what is SSE"');
	});

	it("keel --version prints the package version", async () => {
		const result = await runKeel(["--version"]);
		expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
	});
});
