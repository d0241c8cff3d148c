import { fauxAssistantMessage, registerFauxProvider } from "@keel/ai/testing";
import { afterEach, describe, expect, it } from "vitest";
import { Agent } from "../src/index.js";
import { bindSession, compact, createMemoryTranscriptStore, Session } from "../src/session/index.js";
import { assistantMessage, createTestSession, describeMessages, toolResult, userMessage } from "./session-helpers.js";

const summariser = registerFauxProvider({ api: "faux-compaction-summariser" });
const faux = registerFauxProvider({
	api: "faux-compaction-model",
	models: [{ id: "small-window", contextWindow: 400 }],
});
afterEach(() => {
	for (const registration of [summariser, faux]) {
		registration.setResponses([]);
		registration.state.requests.length = 0;
	}
});

async function sessionWithHistory(): Promise<Session> {
	const session = await createTestSession();
	await session.append(userMessage("set up the repo"));
	await session.append(assistantMessage("", [{ id: "call_1", name: "shell", arguments: { command: "git init" } }]));
	await session.append(toolResult("call_1", "Initialized empty Git repository", "shell"));
	await session.append(assistantMessage("Repository ready."));
	await session.append(userMessage("add a README"));
	await session.append(assistantMessage("", [{ id: "call_2", name: "write", arguments: { path: "README.md" } }]));
	await session.append(toolResult("call_2", "written", "write"));
	await session.append(assistantMessage("README added."));
	return session;
}

describe("compact()", () => {
	it("summarises everything before the kept tail, writes summary and boundary, keeps the full history", async () => {
		const session = await sessionWithHistory();
		summariser.setResponses(["The user set up a git repository."]);
		const result = await compact(session, {
			model: summariser.getModel(),
			prompt: "Summarise tersely.",
			keepRecentMessages: 3,
		});
		expect(result?.summarisedMessageCount).toBe(5);
		// Three messages from the end would start with a tool result: the tail starts at its call.
		expect(describeMessages(session.modelContext())).toEqual([
			"summary: The user set up a git repository.",
			"assistant: call:write",
			"toolResult: written",
			"assistant: README added.",
		]);
		expect(session.messages()).toHaveLength(10);
		expect(session.messages().at(-1)).toMatchObject({
			role: "compact_boundary",
			trigger: "manual",
			summaryId: result?.summaryId,
			firstKeptMessageId: result?.firstKeptMessageId,
		});

		const request = summariser.state.requests[0];
		expect(request.context.systemPrompt).toBe("Summarise tersely.");
		const transcript = request.context.messages[0].content as string;
		expect(transcript).toContain("User: set up the repo");
		expect(transcript).toContain('Assistant called shell({"command":"git init"})');
		expect(transcript).toContain("Result of shell: Initialized empty Git repository");
		expect(transcript).not.toContain("README added.");
	});

	it("compacts again over an earlier summary, and the context survives reopening", async () => {
		const store = createMemoryTranscriptStore();
		const session = await createTestSession(store);
		for (let turn = 1; turn <= 4; turn++) {
			await session.append(userMessage(`question ${turn}`));
			await session.append(assistantMessage(`answer ${turn}`));
		}
		summariser.setResponses(["summary one", "summary two"]);
		await compact(session, { model: summariser.getModel(), keepRecentMessages: 4 });
		await session.append(userMessage("question 5"));
		await session.append(assistantMessage("answer 5"));
		await compact(session, { model: summariser.getModel(), keepRecentMessages: 2 });
		const expected = ["summary: summary two", "user: question 5", "assistant: answer 5"];
		expect(describeMessages(session.modelContext())).toEqual(expected);
		expect(summariser.state.requests[1].context.messages[0].content).toContain("summary one");
		await session.close();
		const reopened = await Session.open(store, session.id);
		expect(describeMessages(reopened.modelContext())).toEqual(expected);
		await reopened.close();
	});

	it("writes nothing when the summary call fails", async () => {
		const session = await sessionWithHistory();
		const before = session.messages().length;
		summariser.setResponses([fauxAssistantMessage("", { stopReason: "error", errorMessage: "overloaded" })]);
		await expect(compact(session, { model: summariser.getModel(), keepRecentMessages: 2 })).rejects.toThrow(
			"Compaction failed: the summary call ended with error (overloaded)",
		);
		expect(session.messages()).toHaveLength(before);
	});

	it("does nothing when the tail already holds everything, and rejects a bad keep option", async () => {
		const session = await createTestSession();
		await session.append(userMessage("hi"));
		expect(await compact(session, { model: summariser.getModel(), keepRecentMessages: 5 })).toBeUndefined();
		expect(summariser.state.requests).toHaveLength(0);
		await expect(compact(session, { model: summariser.getModel(), keepRecentMessages: -1 })).rejects.toThrow(
			"keepRecentMessages must be a whole number of 0 or more, got -1",
		);
	});
});

describe("the Agent compacts", () => {
	it("before a model call once the context reaches the threshold of the window, then goes on", async () => {
		const session = await createTestSession();
		// About 4 characters a token: the 640-character prompt (~170 tokens) stays under the threshold
		// (200 of 400); with the answer's usage the next call would not.
		faux.setResponses([`first answer ${"y".repeat(200)}`, "second answer"]);
		summariser.setResponses(["The user asked a long question."]);
		const agent = new Agent({
			initialState: { model: faux.getModel() },
			store: bindSession(session, {
				compaction: { threshold: 0.5, model: summariser.getModel(), keepRecentMessages: 0 },
			}),
		});
		await agent.prompt(`long question ${"x".repeat(640)}`);
		expect(summariser.state.requests).toHaveLength(0);
		await agent.prompt("short follow-up");

		expect(summariser.state.requests).toHaveLength(1);
		const sent = faux.state.requests[1].context.messages;
		expect(sent).toHaveLength(2);
		expect(sent[0].content).toContain("The user asked a long question.");
		expect(describeMessages(agent.state.messages)).toEqual([
			"summary: The user asked a long question.",
			"user: short follow-up",
			"assistant: second answer",
		]);
		// The summary and boundary follow the kept prompt in the chain; the answer follows them.
		expect(session.messages().at(-2)).toMatchObject({ role: "compact_boundary", trigger: "auto" });
		expect(session.state.tokenBudget).toMatchObject({ compactionCount: 1, contextWindow: 400 });
		expect(session.state.tokenBudget?.lastInputTokens).toBeGreaterThanOrEqual(200);
	});

	it("compacts and retries the turn once when the provider reports an overflow", async () => {
		const session = await createTestSession();
		faux.setResponses([
			"early answer",
			fauxAssistantMessage("", { stopReason: "error", errorMessage: "prompt is too long: 500 tokens > 400 maximum" }),
			"answer after compaction",
		]);
		summariser.setResponses(["Earlier: a greeting."]);
		const agent = new Agent({
			initialState: { model: faux.getModel() },
			store: bindSession(session, {
				compaction: { threshold: 1, model: summariser.getModel(), keepRecentMessages: 1 },
			}),
		});
		await agent.prompt("hello");
		await agent.prompt("now something big");

		expect(agent.state.errorMessage).toBeUndefined();
		expect(describeMessages(agent.state.messages)).toEqual([
			"summary: Earlier: a greeting.",
			"user: now something big",
			"assistant: answer after compaction",
		]);
		expect(faux.state.requests).toHaveLength(3);
		expect(faux.state.requests[2].context.messages[0].content).toContain("Earlier: a greeting.");
		// The failed response stays in the transcript for audit, hidden from the branch.
		expect(session.sideRecords().map((record) => record.message.role)).toEqual(["tombstone"]);
		expect(session.messages().some((message) => message.role === "assistant" && message.stopReason === "error")).toBe(
			false,
		);
	});

	it("does not retry when compaction is turned off", async () => {
		const session = await createTestSession();
		faux.setResponses([fauxAssistantMessage("", { stopReason: "error", errorMessage: "prompt is too long" })]);
		const agent = new Agent({
			initialState: { model: faux.getModel() },
			store: bindSession(session, { compaction: false }),
		});
		await agent.prompt("big");
		expect(agent.state.errorMessage).toBe("prompt is too long");
		expect(faux.state.requests).toHaveLength(1);
	});

	it("compacts on request with agent.compact()", async () => {
		const session = await sessionWithHistory();
		summariser.setResponses(["manual summary"]);
		const agent = new Agent({ initialState: { model: summariser.getModel() }, store: bindSession(session) });
		const result = await agent.compact({ keepRecentMessages: 1 });
		expect(result?.summary.summary).toBe("manual summary");
		expect(describeMessages(agent.state.messages)).toEqual(["summary: manual summary", "assistant: README added."]);
		await expect(new Agent().compact()).rejects.toThrow("agent.compact() needs a session");
	});
});
