// Chat transcripts written by the CLI's previous transcript writer (before chat ran on the Agent)
// still resume: `keel chat --resume <id>` and `keel -c` continue such a session with its messages,
// model, server and system prompt, and append to the same file, each new message chained after the
// old last one. The fixture is a session that writer stored: header, state with the chat settings,
// messages (thinking included), and a second state record from a /reasoning command.
import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { WireTestServer } from "@keel/ai/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { chatCompletionsResponse } from "./helpers/chat-completions-stream.js";
import { createTemporaryHome, isolatedEnvironment, runKeel } from "./helpers/run-keel.js";

const SESSION_ID = "2026-11-27T07-08-33-prmqyp";
const fixture = fileURLToPath(new URL(`./fixtures/previous-chat-writer/${SESSION_ID}.jsonl`, import.meta.url));
const preload = fileURLToPath(new URL("./fixtures/register-faux-provider.mjs", import.meta.url));

let server: WireTestServer;
beforeAll(async () => {
	server = await WireTestServer.start();
});
afterAll(async () => {
	await server.close();
});
beforeEach(() => server.reset());

/** A home whose sessions folder holds the old transcript. */
function homeWithOldTranscript(): { home: string; file: string } {
	const home = createTemporaryHome();
	const sessions = join(home, ".keel", "sessions");
	mkdirSync(sessions, { recursive: true });
	const file = join(sessions, `${SESSION_ID}.jsonl`);
	copyFileSync(fixture, file);
	return { home, file };
}

interface Record {
	type: string;
	id?: string;
	parentId?: string | null;
	message?: { role: string; content: unknown };
}

const records = (file: string) =>
	readFileSync(file, "utf8")
		.trim()
		.split("\n")
		.map((line) => JSON.parse(line) as Record);

describe("a transcript of the previous chat writer", () => {
	it("resumes in keel chat on its stored model (the faux provider), and the new turn is appended to the same chain", async () => {
		const { home, file } = homeWithOldTranscript();
		const before = records(file);
		const lastOldId = before.filter((record) => record.type === "message").at(-1)!.id;
		const chat = await runKeel(["chat", "--resume", SESSION_ID], {
			input: "Say my name once more.\n",
			nodeArguments: ["--import", preload],
			env: isolatedEnvironment(home, { KEEL_TEST_FAUX_ANSWERS: JSON.stringify(["Ada, once more."]) }),
		});
		expect(chat.stderr).not.toContain("Error");
		expect(chat.exitCode).toBe(0);
		expect(chat.stdout).toBe("Ada, once more.\n");
		expect(chat.stderr).toContain(`Session saved: ${SESSION_ID}`);

		const after = records(file);
		const added = after.slice(before.length).filter((record) => record.type === "message");
		expect(added.map((record) => record.message?.role)).toEqual(["user", "assistant"]);
		expect(added[0].parentId).toBe(lastOldId);
		expect(added[1].parentId).toBe(added[0].id);

		const shown = await runKeel(["sessions", "show", SESSION_ID], { env: isolatedEnvironment(home) });
		expect(shown.stdout).toContain("My name is Ada.");
		expect(shown.stdout).toContain("Say my name once more.");
	});

	it("sends its whole history with its system prompt when resumed against another server (flags win)", async () => {
		const { home } = homeWithOldTranscript();
		server.enqueue(chatCompletionsResponse({ text: ["Still Ada."] }));
		const chat = await runKeel(["chat", "--resume", "--base-url", server.url, "--api", "openai-completions"], {
			input: "And now?\n",
			env: isolatedEnvironment(home),
		});
		expect(chat.exitCode).toBe(0);
		expect(chat.stdout).toBe("Still Ada.\n");
		const sent = server.lastRequest!.json as { model: string; messages: { role: string; content: unknown }[] };
		expect(sent.model).toBe("faux-model");
		expect(sent.messages.map((message) => message.role)).toEqual([
			"system",
			"user",
			"assistant",
			"user",
			"assistant",
			"user",
		]);
		expect(sent.messages[0].content).toBe("Be brief.");
		expect(sent.messages[1].content).toBe("My name is Ada.");
		expect(sent.messages.at(-1)!.content).toBe("And now?");
	});

	it("keel -c continues it as the most recent conversation, and keel logs lists its exchanges", async () => {
		const { home } = homeWithOldTranscript();
		server.enqueue(chatCompletionsResponse({ text: ["Yes, Ada."] }));
		const env = isolatedEnvironment(home);
		// The stored server and API (the faux provider) stay unless flags replace them.
		const continued = await runKeel(["-c", "--base-url", server.url, "--api", "openai-completions", "Still me?"], {
			env,
		});
		expect(continued.exitCode).toBe(0);
		expect(continued.stdout).toBe("Yes, Ada.\n");
		const logs = JSON.parse((await runKeel(["logs", "--cid", SESSION_ID, "--json"], { env })).stdout) as {
			prompt: string;
			response: string;
		}[];
		expect(logs.map((entry) => [entry.prompt, entry.response])).toEqual([
			["My name is Ada.", "Hi, Ada."],
			["What is my name?", "Your name is Ada."],
			["Still me?", "Yes, Ada."],
		]);
	});
});
