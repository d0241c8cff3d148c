// `keel sessions import` of real pi and Claude Code transcripts (the fixtures of @keel/agent-core)
// and `keel sessions export --format keel|pi|claude-code`.
import {
	copyFileSync,
	cpSync,
	existsSync,
	mkdirSync,
	readdirSync,
	readFileSync,
	statSync,
	writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { WireTestServer } from "@keel/ai/testing";
import { describe, expect, it } from "vitest";
import { chatCompletionsResponse } from "./helpers/chat-completions-stream.js";
import { createTemporaryHome, isolatedEnvironment, runKeel } from "./helpers/run-keel.js";

const fixtures = join(import.meta.dirname, "..", "..", "agent", "test", "fixtures");
const CLAUDE_SESSION = "8463c716-a2ea-4c14-9efa-87158ebd9f20";
const PI_SESSION = "0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b";

describe("keel sessions import", () => {
	it("imports a Claude Code transcript with its sub-agents as new sessions, leaving the files unchanged", async () => {
		const home = createTemporaryHome();
		const env = isolatedEnvironment(home);
		const source = join(home, "claude");
		mkdirSync(source);
		copyFileSync(join(fixtures, "claude-code", `${CLAUDE_SESSION}.jsonl`), join(source, `${CLAUDE_SESSION}.jsonl`));
		cpSync(join(fixtures, "claude-code", CLAUDE_SESSION), join(source, CLAUDE_SESSION), { recursive: true });
		const before = readFileSync(join(source, `${CLAUDE_SESSION}.jsonl`));

		const imported = await runKeel(["sessions", "import", join(source, `${CLAUDE_SESSION}.jsonl`)], { env });
		expect(imported.stderr).toMatch(
			/Imported the Claude Code transcript .* as session 8463c716-\S+ \(324 messages, and 2 sub-agent sidechains\)/,
		);
		expect(imported.exitCode).toBe(0);
		expect(imported.stdout).toBe(`${CLAUDE_SESSION}\n`);
		expect(readFileSync(join(source, `${CLAUDE_SESSION}.jsonl`)).equals(before)).toBe(true);

		const list = JSON.parse((await runKeel(["sessions", "list", "--json"], { env })).stdout) as { sessionId: string }[];
		expect(list.map((session) => session.sessionId).sort()).toEqual([
			CLAUDE_SESSION,
			`${CLAUDE_SESSION}--agent-a7be2f0`,
			`${CLAUDE_SESSION}--agent-acompact-f46190`,
		]);
		const shown = await runKeel(["sessions", "show", CLAUDE_SESSION], { env });
		expect(shown.stdout).toMatch(/^user:\nWork on bead spotter-fum/);

		const again = await runKeel(["sessions", "import", join(source, `${CLAUDE_SESSION}.jsonl`)], { env });
		expect(again.exitCode).toBe(2);
		expect(again.stderr).toMatch(/already exists/);
		const renamed = await runKeel(
			["sessions", "import", join(source, `${CLAUDE_SESSION}.jsonl`), "--session-id", "second-copy"],
			{ env },
		);
		expect(renamed.exitCode).toBe(0);
		expect(renamed.stdout).toBe("second-copy\n");
	}, 60_000);

	it("imports a pi session and refuses a file of neither format, writing nothing", async () => {
		const home = createTemporaryHome();
		const env = isolatedEnvironment(home);
		const other = join(home, "other.jsonl");
		writeFileSync(other, '{"hello":"world"}\n');
		const refused = await runKeel(["sessions", "import", other], { env });
		expect(refused.exitCode).toBe(2);
		expect(refused.stderr).toMatch(/neither a pi session nor a Claude Code transcript/);
		expect(existsSync(join(home, ".keel", "sessions")) ? readdirSync(join(home, ".keel", "sessions")) : []).toEqual([]);

		const imported = await runKeel(
			["sessions", "import", join(fixtures, "pi", "pi-written-session.jsonl"), "--format", "pi"],
			{
				env,
			},
		);
		expect(imported.exitCode).toBe(0);
		expect(imported.stderr).toMatch(/Imported the pi session .* \(13 messages\)/);
	}, 60_000);
});

describe("keel sessions export --format keel|pi|claude-code", () => {
	it("writes each transcript format to stdout or to a new owner-only file, never over an existing one", async () => {
		const home = createTemporaryHome();
		const env = isolatedEnvironment(home);
		await runKeel(["sessions", "import", join(fixtures, "pi", "pi-written-session.jsonl")], { env });

		const pi = await runKeel(["sessions", "export", PI_SESSION, "--format", "pi"], { env });
		expect(pi.exitCode).toBe(0);
		expect(JSON.parse(pi.stdout.split("\n")[0])).toMatchObject({ type: "session", version: 3, id: PI_SESSION });

		const claude = await runKeel(["sessions", "export", PI_SESSION, "--format", "claude-code"], { env });
		const lines = claude.stdout
			.trimEnd()
			.split("\n")
			.map((line) => JSON.parse(line));
		expect(lines.every((line) => typeof line.uuid === "string" && line.sessionId === PI_SESSION)).toBe(true);
		expect(lines.some((line) => line.subtype === "compact_boundary")).toBe(true);

		const keel = await runKeel(["sessions", "export", PI_SESSION, "--format", "keel"], { env });
		expect(JSON.parse(keel.stdout.split("\n")[0])).toMatchObject({ v: 1, type: "session", sessionId: PI_SESSION });

		const file = join(home, "exported.jsonl");
		const written = await runKeel(["sessions", "export", PI_SESSION, "--format", "pi", "-o", file], { env });
		expect(written.exitCode).toBe(0);
		expect(readFileSync(file, "utf8")).toBe(pi.stdout);
		if (process.platform !== "win32") expect(statSync(file).mode & 0o777).toBe(0o600);
		const refused = await runKeel(["sessions", "export", PI_SESSION, "--format", "pi", "-o", file], { env });
		expect(refused.exitCode).toBe(2);
		expect(refused.stderr).toMatch(/already exists/);
		expect(readFileSync(file, "utf8")).toBe(pi.stdout);
	}, 60_000);
});

describe("continuing an imported session", () => {
	it("keel chat --resume sends the imported Claude Code conversation's context to the model, and appends to the new session only", async () => {
		const server = await WireTestServer.start();
		try {
			const home = createTemporaryHome();
			const env = isolatedEnvironment(home, { KEEL_BASE_URL: server.url });
			const source = join(home, "short.jsonl");
			copyFileSync(join(fixtures, "claude-code", "short.jsonl"), source);
			const before = readFileSync(source);
			const imported = await runKeel(["sessions", "import", source, "--session-id", "from-claude"], { env });
			expect(imported.exitCode).toBe(0);
			server.enqueue(chatCompletionsResponse({ text: ["Run mix deps.get first."] }));
			const chat = await runKeel(["chat", "--resume", "from-claude", "-m", "test-model"], { input: "And now?\n", env });
			expect(chat.stderr).not.toContain("Error");
			expect(chat.stdout).toBe("Run mix deps.get first.\n");
			const sent = (server.requests[0].json as { messages: { role: string; content: unknown }[] }).messages;
			// The first prompt, one assistant turn with its two parallel tool calls and both results, the
			// interruption note, then the new prompt.
			expect(sent.map((message) => message.role)).toEqual(["user", "assistant", "tool", "tool", "user", "user"]);
			expect(sent[0].content).toBe("mix phx.server doesnt seem to start");
			expect(readFileSync(source).equals(before)).toBe(true);
		} finally {
			await server.close();
		}
	}, 60_000);
});
