// `keel chat` with piped input (one message a line) against the wire-test server: the conversation
// carries over between turns, slash commands answer, and every chat is stored as a session that
// `keel sessions` lists, shows and exports, and `keel chat --resume` continues.
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
}

const requestMessages = (index: number) => (server.requests[index].json as ChatRequest).messages;

describe("keel chat with piped input", () => {
	it("sends each line as a turn with the conversation so far, and stores it as a session", async () => {
		const env = isolatedEnvironment(createTemporaryHome(), { KEEL_BASE_URL: server.url });
		server.enqueue(
			chatCompletionsResponse({ text: ["Hi, Ada."] }),
			chatCompletionsResponse({ text: ["Your name is Ada."] }),
		);
		const chat = await runKeel(["chat", "-m", "test-model", "-s", "Be brief."], {
			input: "My name is Ada.\n/cost\nWhat is my name?\n",
			env,
		});
		expect(chat.stderr).not.toContain("Error");
		expect(chat.exitCode).toBe(0);
		expect(chat.stdout).toBe("Hi, Ada.\n1 answer: 12 in, 7 out · $0 ($0 in all)\nYour name is Ada.\n");
		expect(requestMessages(1)).toEqual([
			{ role: "system", content: "Be brief." },
			{ role: "user", content: "My name is Ada." },
			{ role: "assistant", content: "Hi, Ada." },
			{ role: "user", content: "What is my name?" },
		]);
		const sessionId = /Session saved: (\S+)/.exec(chat.stderr)?.[1];
		expect(sessionId).toBeDefined();

		const list = await runKeel(["sessions", "list", "--json"], { env });
		expect((JSON.parse(list.stdout) as { sessionId: string }[]).map((session) => session.sessionId)).toEqual([
			sessionId,
		]);

		const listed = await runKeel(["sessions"], { env });
		expect(listed.stdout).toMatch(new RegExp(`^${sessionId}\\s.*\\sMy name is Ada\\.$`, "m"));
		const shown = await runKeel(["sessions", "show", sessionId!], { env });
		expect(shown.stdout).toBe(
			"user:\nMy name is Ada.\n\nassistant (custom/test-model):\nHi, Ada.\n\n" +
				"user:\nWhat is my name?\n\nassistant (custom/test-model):\nYour name is Ada.\n",
		);

		const markdown = await runKeel(["sessions", "export", sessionId!, "--format", "md"], { env });
		expect(markdown.stdout).toBe(
			`# Session ${sessionId}\n\n## user\n\nMy name is Ada.\n\n## assistant (custom/test-model)\n\nHi, Ada.\n\n` +
				"## user\n\nWhat is my name?\n\n## assistant (custom/test-model)\n\nYour name is Ada.\n",
		);
		const json = JSON.parse((await runKeel(["sessions", "export", sessionId!, "--format", "json"], { env })).stdout);
		expect(json.messages.map((message: { role: string }) => message.role)).toEqual([
			"user",
			"assistant",
			"user",
			"assistant",
		]);

		// --resume alone continues the latest session, with its history, model, server and system prompt.
		server.enqueue(chatCompletionsResponse({ text: ["Still Ada."] }));
		const resumed = await runKeel(["chat", "--resume"], {
			input: "And now?\n",
			env: isolatedEnvironment(env.HOME),
		});
		expect(resumed.stdout).toBe("Still Ada.\n");
		expect(requestMessages(2).map((message) => message.content)).toEqual([
			"Be brief.",
			"My name is Ada.",
			"Hi, Ada.",
			"What is my name?",
			"Your name is Ada.",
			"And now?",
		]);
		expect((server.requests[2].json as ChatRequest).model).toBe("test-model");
		expect(resumed.stderr).toContain(`Session saved: ${sessionId}`);
	});

	it("/clear starts a new session; /model and /reasoning report and switch", async () => {
		const env = isolatedEnvironment(createTemporaryHome(), { KEEL_BASE_URL: server.url });
		server.enqueue(chatCompletionsResponse({ text: ["one"] }), chatCompletionsResponse({ text: ["two"] }));
		const chat = await runKeel(["chat", "-m", "first-model"], {
			input: "hello\n/clear\n/model second-model\n/reasoning\nhello again\n/exit\nnever sent\n",
			env,
		});
		expect(chat.stdout).toBe("one\nStarted a new conversation.\nModel: custom/second-model\nReasoning: off\ntwo\n");
		expect(requestMessages(1)).toEqual([{ role: "user", content: "hello again" }]);
		expect((server.requests[1].json as ChatRequest).model).toBe("second-model");
		expect(server.requests).toHaveLength(2);
		const list = JSON.parse((await runKeel(["sessions", "list", "--json"], { env })).stdout) as unknown[];
		expect(list).toHaveLength(2);
	});

	it("keeps going after a failed answer, and exits 1 at the end of piped input", async () => {
		const env = isolatedEnvironment(createTemporaryHome(), { KEEL_BASE_URL: server.url });
		server.enqueue(
			{ status: 400, body: { error: { message: "context too long" } } },
			chatCompletionsResponse({ text: ["recovered"] }),
		);
		const chat = await runKeel(["chat", "-m", "test-model"], { input: "first\nsecond\n", env });
		expect(chat.stderr).toContain("Error: ");
		expect(chat.stderr).toContain("context too long");
		expect(chat.stdout).toBe("recovered\n");
		expect(chat.exitCode).toBe(1);
		// The failed answer is not sent back to the model.
		expect(requestMessages(1)).toEqual([
			{ role: "user", content: "first" },
			{ role: "user", content: "second" },
		]);
	});

	it("sessions show, and clear errors for an unknown session or format", async () => {
		const env = isolatedEnvironment(createTemporaryHome());
		const empty = await runKeel(["sessions"], { env });
		expect(empty.exitCode).toBe(0);
		expect(empty.stderr).toContain("No sessions yet");
		const unknown = await runKeel(["sessions", "show", "nope"], { env });
		expect(unknown.exitCode).toBe(2);
		expect(unknown.stderr).toContain('no session "nope"');
		const resume = await runKeel(["chat", "--resume", "-m", "x", "--base-url", server.url], { env });
		expect(resume.exitCode).toBe(2);
		expect(resume.stderr).toContain("there is no stored session to resume");
	});
});
