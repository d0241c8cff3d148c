import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fauxAssistantMessage, fauxToolCall, registerFauxProvider } from "@keel/ai/testing";
import { afterEach, describe, expect, it } from "vitest";
import { Agent, type AgentTool } from "../src/index.js";
import {
	bindSession,
	createMemoryTranscriptStore,
	INTERRUPTED_TOOL_TEXT,
	resumeAgent,
	Session,
	sessionConvertToLlm,
} from "../src/session/index.js";
import { createJsonlTranscriptStore } from "../src/session/jsonl/index.js";
import { echoTool } from "./helpers.js";
import { assistantMessage, describeMessages, userMessage } from "./session-helpers.js";

const faux = registerFauxProvider({ api: "faux-session-resume" });
afterEach(() => {
	faux.setResponses([]);
	faux.state.requests.length = 0;
});

function countingTool(): { tool: AgentTool; calls: string[] } {
	const calls: string[] = [];
	const echo = echoTool();
	return {
		calls,
		tool: {
			...echo,
			async execute(id, params, signal, onUpdate) {
				calls.push(id);
				return echo.execute(id, params, signal, onUpdate);
			},
		},
	};
}

describe("resume", () => {
	it("rebuilds an Agent that sends the model exactly what it saw before, minus progress", async () => {
		const store = createMemoryTranscriptStore();
		const session = await Session.create(store);
		const tools = [echoTool()];
		faux.setResponses([
			fauxAssistantMessage(fauxToolCall("echo", { value: "x" }, "call_1")),
			"first answer",
			"second answer",
		]);
		const agent = new Agent({
			initialState: { model: faux.getModel(), tools, systemPrompt: "be brief" },
			store: bindSession(session),
		});
		await agent.prompt("start");
		await session.append({ role: "progress", text: "indexing 40%", timestamp: Date.now() });
		await session.close();
		const before = agent.state.messages;

		const reopened = await Session.open(store, session.id);
		const resumed = await resumeAgent(reopened, {
			initialState: { model: faux.getModel(), tools, systemPrompt: "be brief" },
		});
		expect(resumed.state.messages).toEqual(before);
		await resumed.prompt("again");

		const firstCallContext = faux.state.requests[1].context.messages;
		const resumedCallContext = faux.state.requests[2].context.messages;
		// Everything the model saw on its last call before the restart, then its answer and the new prompt.
		expect(resumedCallContext.slice(0, firstCallContext.length)).toEqual(firstCallContext);
		expect(describeMessages(resumedCallContext.slice(firstCallContext.length))).toEqual([
			"assistant: first answer",
			"user: again",
		]);
		expect(resumedCallContext.some((message) => (message.role as string) === "progress")).toBe(false);
		await reopened.close();
	});

	it("resumes from a JSONL file, branches and compaction included, as a new process would", async () => {
		const directory = await mkdtemp(join(tmpdir(), "keel-session-resume-"));
		try {
			const session = await Session.create(createJsonlTranscriptStore({ directory }));
			faux.setResponses(["one", "two", "summary of one", "three", "other three"]);
			const agent = new Agent({ initialState: { model: faux.getModel() }, store: bindSession(session) });
			await agent.prompt("first");
			await agent.prompt("second");
			await agent.compact({ keepRecentMessages: 2 });
			await agent.prompt("third");
			// Forking from the summary keeps the compaction on the new branch.
			await agent.fork(session.idOf(agent.state.messages[0]) ?? null);
			await agent.prompt("other third");
			const expected = agent.state.messages;
			await session.close();

			// A new store object over the same directory: nothing shared but the file.
			const reopened = await Session.open(createJsonlTranscriptStore({ directory }), session.id);
			const resumed = await resumeAgent(reopened, { initialState: { model: faux.getModel() } });
			expect(resumed.state.messages).toEqual(expected);
			expect(describeMessages(resumed.state.messages)).toEqual([
				"summary: summary of one",
				"user: second",
				"assistant: two",
				"user: other third",
				"assistant: other three",
			]);
			expect(reopened.branches()).toHaveLength(2);
			await reopened.close();
		} finally {
			await rm(directory, { recursive: true, force: true });
		}
	});

	it('opens with load: "context" reading only the model context and the leaves in full', async () => {
		const directory = await mkdtemp(join(tmpdir(), "keel-session-outline-"));
		try {
			const store = createJsonlTranscriptStore({ directory });
			const session = await Session.create(store);
			faux.setResponses(["one", "two", "summary of one", "three", "four"]);
			const agent = new Agent({ initialState: { model: faux.getModel() }, store: bindSession(session) });
			await agent.prompt("first");
			await agent.prompt("second");
			await agent.compact({ keepRecentMessages: 2 });
			await agent.prompt("third");
			const forkPoint = session.idOf(agent.state.messages[0]) ?? null;
			await agent.prompt("fourth");
			const otherLeaf = session.leafId as string;
			const firstId = session.branch()[0].id;
			await agent.fork(forkPoint);
			const expectedContext = session.modelContext();
			const expectedOther = session.messages(otherLeaf);
			await session.close();

			const opened = await Session.open(store, session.id, { load: "context" });
			expect(opened.modelContext()).toEqual(expectedContext);
			// The summarised history is an outline until a branch is loaded.
			expect(opened.getRecord(firstId)?.message).toEqual({ role: "user", timestamp: expect.any(Number) });
			expect(() => opened.messages(otherLeaf)).toThrow("await session.loadBranch");
			await opened.loadBranch(otherLeaf);
			expect(opened.messages(otherLeaf)).toEqual(expectedOther);
			await opened.switchBranch(otherLeaf);
			const resumed = await resumeAgent(opened, { initialState: { model: faux.getModel() } });
			expect(describeMessages(resumed.state.messages).slice(-2)).toEqual(["user: fourth", "assistant: four"]);
			await opened.close();
		} finally {
			await rm(directory, { recursive: true, force: true });
		}
	});

	it("answers a turn interrupted mid-tool-call with interrupted error results by default", async () => {
		const store = createMemoryTranscriptStore();
		const session = await Session.create(store);
		await session.append(userMessage("list files"));
		await session.append(assistantMessage("", [{ id: "call_1", name: "echo", arguments: { value: "a" } }]));
		await session.close();

		const { tool, calls } = countingTool();
		const reopened = await Session.open(store, session.id);
		const agent = await resumeAgent(reopened, { initialState: { model: faux.getModel(), tools: [tool] } });
		expect(calls).toEqual([]);
		expect(agent.state.messages.at(-1)).toMatchObject({
			role: "toolResult",
			toolCallId: "call_1",
			isError: true,
			content: [{ type: "text", text: INTERRUPTED_TOOL_TEXT }],
		});
		faux.setResponses(["It was interrupted; shall I retry?"]);
		await agent.continue();
		const sent = faux.state.requests[0].context.messages;
		expect(sent.map((message) => message.role)).toEqual(["user", "assistant", "toolResult"]);
		// The result is on disk too: a second resume does not add another.
		await reopened.close();
		const again = await Session.open(store, session.id);
		expect(again.messages().filter((message) => message.role === "toolResult")).toHaveLength(1);
		await again.close();
	});

	it('re-runs the interrupted tool calls with interruptedToolCalls: "rerun"', async () => {
		const store = createMemoryTranscriptStore();
		const session = await Session.create(store);
		await session.append(userMessage("echo twice"));
		await session.append(
			assistantMessage("", [
				{ id: "call_1", name: "echo", arguments: { value: "a" } },
				{ id: "call_2", name: "echo", arguments: { value: "b" } },
			]),
		);
		await session.close();

		const { tool, calls } = countingTool();
		const reopened = await Session.open(store, session.id);
		const agent = await resumeAgent(reopened, {
			initialState: { model: faux.getModel(), tools: [tool] },
			interruptedToolCalls: "rerun",
		});
		expect(calls).toEqual(["call_1", "call_2"]);
		expect(describeMessages(agent.state.messages.slice(2))).toEqual(["toolResult: echo:a", "toolResult: echo:b"]);
		expect(reopened.unansweredToolCalls()).toEqual([]);
		await reopened.close();
	});

	it("rejects an unknown interrupted-call policy with the allowed values", async () => {
		const session = await Session.create(createMemoryTranscriptStore());
		await expect(resumeAgent(session, { interruptedToolCalls: "retry" as never })).rejects.toThrow(
			'interruptedToolCalls must be "error-results" or "rerun", got "retry"',
		);
	});
});

describe("sessionConvertToLlm", () => {
	it("sends attachments as user content, notifications in a system-event wrapper, summaries as user text; never progress, boundaries or tombstones", () => {
		const converted = sessionConvertToLlm([
			{ role: "progress", text: "50%", timestamp: 1 },
			{
				role: "attachment",
				name: "notes.md",
				mimeType: "text/markdown",
				content: [{ type: "text", text: "# Notes" }],
				timestamp: 2,
			},
			{ role: "notification", kind: "hook_blocked", text: "rm -rf was blocked", timestamp: 3 },
			{ role: "notification", kind: "context", text: "UI only", forModel: false, timestamp: 4 },
			{ role: "summary", summary: "We set up the repo.", summarisedMessageCount: 10, timestamp: 5 },
			{ role: "compact_boundary", trigger: "manual", summaryId: "s", timestamp: 6 },
			{ role: "tombstone", targetId: "x", timestamp: 7 },
			{ role: "user", content: "hi", timestamp: 8 },
		]);
		expect(converted.map((message) => message.role)).toEqual(["user", "user", "user", "user"]);
		expect(converted[0].content).toEqual([
			{ type: "text", text: '<attachment name="notes.md" type="text/markdown">' },
			{ type: "text", text: "# Notes" },
			{ type: "text", text: "</attachment>" },
		]);
		expect(converted[1].content).toBe('<system-event kind="hook_blocked">\nrm -rf was blocked\n</system-event>');
		expect(converted[2].content).toContain("<summary>\nWe set up the repo.\n</summary>");
		expect(converted[3].content).toBe("hi");
	});
});
