// `keel chat` with stdin piped: a line that arrives while an answer is written does not interrupt
// it (steering is for a person at a terminal); it is the next message, sent once the answer is
// complete, as each piped line always was.
import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatCompletionsPieces } from "./helpers/chat-completions-stream.js";
import { GatedChatServer } from "./helpers/gated-chat-server.js";
import { assertCliBuilt, CLI_PATH, createTemporaryHome, isolatedEnvironment } from "./helpers/run-keel.js";

let server: GatedChatServer;
beforeAll(async () => {
	assertCliBuilt();
	server = await GatedChatServer.start();
});
afterAll(async () => {
	await server?.close();
});

describe("keel chat with piped input", () => {
	it("a line piped in while an answer is written waits for the whole answer, then is the next message", async () => {
		const child = spawn(process.execPath, [CLI_PATH, "chat", "-m", "test-model", "--base-url", server.url], {
			env: isolatedEnvironment(createTemporaryHome()),
			stdio: ["pipe", "pipe", "pipe"],
		});
		let stdout = "";
		let stderr = "";
		child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
			stdout += chunk;
		});
		child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
			stderr += chunk;
		});
		const exited = new Promise<number | null>((resolve) => child.on("close", resolve));

		child.stdin.write("first question\n");
		const first = await server.nextRequest();
		let answerComplete = false;
		let cutOff = false;
		void first.closed.then(() => {
			cutOff = !answerComplete;
		});
		const [opening, text, ...rest] = chatCompletionsPieces({ text: ["A whole", " answer."] });
		first.send(opening);
		// The second line is there to be read before the answer's text arrives and is printed.
		child.stdin.end("second question\n");
		await new Promise<void>((resolve) => child.stdin.on("finish", resolve));
		first.send(text);
		await new Promise<void>((resolve) => {
			const check = () => {
				if (!stdout.includes("A whole")) return;
				child.stdout.off("data", check);
				resolve();
			};
			child.stdout.on("data", check);
			check();
		});
		answerComplete = true;
		for (const piece of rest) first.send(piece);
		first.end();

		const second = await server.nextRequest();
		expect((second.body as { messages: { content: unknown }[] }).messages.map((message) => message.content)).toEqual([
			"first question",
			"A whole answer.",
			"second question",
		]);
		for (const piece of chatCompletionsPieces({ text: ["Second answer."] })) second.send(piece);
		second.end();
		expect(await exited).toBe(0);
		expect(cutOff).toBe(false);
		expect(stdout).toBe("A whole answer.\nSecond answer.\n");
		expect(stderr).not.toContain("interrupted");
	});
});
