// The built `keel` against the faux provider of @keel/ai/testing, registered by a `node --import`
// preload under the api "faux": no server at all, the answers scripted per test. `--api faux`
// routes the custom model to it (the base URL is never called).
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createTemporaryHome, isolatedEnvironment, runKeel } from "./helpers/run-keel.js";

const preload = fileURLToPath(new URL("./fixtures/register-faux-provider.mjs", import.meta.url));
const fauxFlags = ["--api", "faux", "--base-url", "http://127.0.0.1:9", "-m", "faux-model"];

function runWithFaux(args: string[], answers: string[], input = "", home = createTemporaryHome()) {
	return runKeel(args, {
		input,
		nodeArguments: ["--import", preload],
		env: isolatedEnvironment(home, { KEEL_TEST_FAUX_ANSWERS: JSON.stringify(answers) }),
	});
}

describe("keel on the faux provider", () => {
	it("prompt: the answer on stdout, its thinking only in --json", async () => {
		const plain = await runWithFaux(["prompt", ...fauxFlags, "hello"], ["Faux says hello."]);
		expect(plain.exitCode).toBe(0);
		expect(plain.stdout).toBe("Faux says hello.\n");

		const json = await runWithFaux(["prompt", ...fauxFlags, "--json", "hello"], ["Faux says hello."]);
		const events = json.stdout
			.trim()
			.split("\n")
			.map((line) => JSON.parse(line) as { type: string; delta?: string });
		const thinking = events.filter((event) => event.type === "thinking_delta").map((event) => event.delta);
		expect(thinking.join("")).toBe("Thinking about: Faux says hello.");
		expect(events.map((event) => event.type)).toContain("thinking_end");
	});

	it("chat: two turns from piped lines, and /cost counts both", async () => {
		const chat = await runWithFaux(["chat", ...fauxFlags], ["First.", "Second."], "one\ntwo\n/cost\n");
		expect(chat.exitCode).toBe(0);
		expect(chat.stdout).toMatch(/^First\.\nSecond\.\n2 answers: \d+ in, \d+ out[^·]* · \$0 \(\$0 in all\)\n$/);
	});

	it("an empty queue is an error with the faux provider's message and exit code 1", async () => {
		const result = await runWithFaux(["prompt", ...fauxFlags, "hello"], []);
		expect(result.exitCode).toBe(1);
		expect(result.stderr).toContain("No more faux responses queued");
	});

	it('the habits on the faux provider: keel "text", a template, keel logs and -c', async () => {
		const home = createTemporaryHome();
		const saved = await runWithFaux(["--save", "faux", ...fauxFlags, "-s", "Be faux."], [], "", home);
		expect(saved.exitCode).toBe(0);
		// The template keeps the model name; the server and API come from the flags each time.
		const first = await runWithFaux(
			["-t", "faux", "--api", "faux", "--base-url", "http://127.0.0.1:9", "Hello"],
			["First faux."],
			"",
			home,
		);
		expect(first.stdout).toBe("First faux.\n");
		const continued = await runWithFaux(["-c", "Again"], ["Second faux."], "", home);
		expect(continued.stdout).toBe("Second faux.\n");

		const logs = await runWithFaux(["logs", "--json"], [], "", home);
		const entries = JSON.parse(logs.stdout) as { prompt: string; response: string; model: string; system: string }[];
		expect(entries.map((entry) => [entry.prompt, entry.response])).toEqual([
			["Again", "Second faux."],
			["Hello", "First faux."],
		]);
		expect(entries[0].model).toBe("custom/faux-model");
		expect(entries[0].system).toBe("Be faux.");
	});
});
