// The built `keel` against the faux provider of @keel/ai/testing, registered by a `node --import`
// preload under the api "faux": no server at all, the answers scripted per test. `--api faux`
// routes the custom model to it (the base URL is never called).
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createTemporaryHome, isolatedEnvironment, runKeel } from "./helpers/run-keel.js";

const preload = fileURLToPath(new URL("./fixtures/register-faux-provider.mjs", import.meta.url));
const fauxFlags = ["--api", "faux", "--base-url", "http://127.0.0.1:9", "-m", "faux-model"];

function runWithFaux(args: string[], answers: string[], input = "") {
	return runKeel(args, {
		input,
		nodeArguments: ["--import", preload],
		env: isolatedEnvironment(createTemporaryHome(), { KEEL_TEST_FAUX_ANSWERS: JSON.stringify(answers) }),
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
});
