// `keel login` saves a key (piped here, as a script would), `keel keys` shows every key found,
// masked, `keel prompt` sends the saved key, and `keel logout` removes it.
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { WireTestServer } from "@keel/ai/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatCompletionsResponse } from "./helpers/chat-completions-stream.js";
import { createTemporaryHome, isolatedEnvironment, runKeel } from "./helpers/run-keel.js";

let server: WireTestServer;
beforeAll(async () => {
	server = await WireTestServer.start();
});
afterAll(async () => {
	await server.close();
});

const SAVED_KEY = "sk-or-v1-saved-0123456789abcdef";
const ENVIRONMENT_KEY = "sk-ant-environment-0123456789wxyz";

interface FoundCredential {
	provider: string;
	source: string;
	masked: string;
	used: boolean;
	variable?: string;
}

describe("keel login, keys and logout", () => {
	it("saves a piped key, lists keys masked, uses the saved key, and removes it", async () => {
		const home = createTemporaryHome();
		const env = isolatedEnvironment(home, { ANTHROPIC_API_KEY: ENVIRONMENT_KEY });

		const login = await runKeel(["login", "openrouter"], { input: `${SAVED_KEY}\n`, env });
		expect(login.stderr).toContain("Saved the credential for openrouter");
		expect(login.exitCode).toBe(0);
		const file = join(home, ".config/keel/credentials.json");
		expect(statSync(file).mode & 0o777).toBe(0o600);
		expect(readFileSync(file, "utf8")).toContain(SAVED_KEY);

		const keys = await runKeel(["keys", "--json"], { env });
		const found = JSON.parse(keys.stdout) as FoundCredential[];
		expect(found.map(({ provider, source, used }) => ({ provider, source, used }))).toEqual([
			{ provider: "anthropic", source: "environment", used: true },
			{ provider: "openrouter", source: "store", used: true },
		]);
		expect(found[0].variable).toBe("ANTHROPIC_API_KEY");
		const table = await runKeel(["keys"], { env });
		for (const output of [keys.stdout, table.stdout, table.stderr]) {
			expect(output).not.toContain(SAVED_KEY);
			expect(output).not.toContain(ENVIRONMENT_KEY);
		}
		expect(table.stdout).toMatch(/^openrouter\s+keel login\s+api-key\s+sk-…cdef\s+yes/m);
		expect(table.stdout).toMatch(/^anthropic\s+ANTHROPIC_API_KEY\s+api-key\s+sk-…wxyz\s+yes/m);

		// A catalogue model sent to a local server: the saved key is the one sent.
		server.enqueue(chatCompletionsResponse({ text: ["ok"] }));
		const prompt = await runKeel(
			["prompt", "-m", "openrouter/anthropic/claude-haiku-4.5", "--base-url", server.url, "hi"],
			{
				env,
			},
		);
		expect(prompt.exitCode).toBe(0);
		expect(server.lastRequest!.headers.authorization).toBe(`Bearer ${SAVED_KEY}`);

		const logout = await runKeel(["logout", "openrouter"], { env });
		expect(logout.stderr).toContain("Removed the saved credential for openrouter");
		const after = JSON.parse((await runKeel(["keys", "--json"], { env })).stdout) as FoundCredential[];
		expect(after.map((entry) => entry.provider)).toEqual(["anthropic"]);
		const again = await runKeel(["logout", "openrouter"], { env });
		expect(again.stderr).toContain("No saved credential for openrouter");
	});

	it("refuses an empty key and a missing provider with a clear message", async () => {
		const env = isolatedEnvironment(createTemporaryHome());
		const empty = await runKeel(["login", "anthropic"], { input: "\n", env });
		expect(empty.exitCode).toBe(1);
		expect(empty.stderr).toContain("No key given; nothing saved.");
		const missing = await runKeel(["login"], { env });
		expect(missing.exitCode).toBe(2);
		expect(missing.stderr).toContain("expected one provider, e.g. keel login anthropic");
		const none = await runKeel(["keys"], { env });
		expect(none.stderr).toContain("No keys found.");
	});
});
