import { Type } from "@keel/ai";
import { fauxAssistantMessage, fauxToolCall, registerFauxProvider } from "@keel/ai/testing";
import { afterEach, describe, expect, it } from "vitest";
import { Agent, type AgentTool } from "../src/index.js";
import { bindSession, createMemoryTranscriptStore, Session, type TranscriptStore } from "../src/session/index.js";
import { controlledTool } from "./helpers.js";
import { createTestSession, describeMessages } from "./session-helpers.js";

const faux = registerFauxProvider({ api: "faux-session-agent" });
afterEach(() => {
	faux.setResponses([]);
	faux.state.requests.length = 0;
});

/** A tool that reports progress before answering. */
const progressTool: AgentTool = {
	name: "index",
	label: "Index",
	description: "indexes the project",
	parameters: Type.Object({}),
	async execute(_id, _params, _signal, onUpdate) {
		onUpdate?.({ content: [{ type: "text", text: "50%" }], details: {} });
		return { content: [{ type: "text", text: "indexed 12 files" }], details: {} };
	},
};

describe("an Agent with a session", () => {
	it("appends every message as it ends, before the listeners hear of it; tool progress stays a UI event", async () => {
		const session = await createTestSession();
		faux.setResponses([fauxAssistantMessage(fauxToolCall("index", {}, "call_1")), "Done."]);
		const agent = new Agent({
			initialState: { model: faux.getModel(), tools: [progressTool] },
			store: bindSession(session),
		});
		const idsAtMessageEnd: (string | undefined)[] = [];
		let updates = 0;
		agent.subscribe((event) => {
			if (event.type === "message_end") idsAtMessageEnd.push(session.idOf(event.message));
			if (event.type === "tool_execution_update") updates++;
		});
		await agent.prompt("index the project");

		expect(updates).toBe(1);
		expect(idsAtMessageEnd.every((id) => typeof id === "string")).toBe(true);
		expect(session.branch().map((record) => record.id)).toEqual(idsAtMessageEnd);
		expect(session.messages()).toEqual(agent.state.messages);
		expect(describeMessages(session.messages())).toEqual([
			"user: index the project",
			"assistant: call:index",
			"toolResult: indexed 12 files",
			"assistant: Done.",
		]);
		expect(session.sideRecords()).toEqual([]);
		expect(faux.state.requests[0].options).toMatchObject({ sessionId: session.id });
	});

	it("fails the run with the store's error when a write fails", async () => {
		const inner = createMemoryTranscriptStore();
		const failing: TranscriptStore = {
			...inner,
			async openWriter(sessionId, options) {
				const writer = await inner.openWriter(sessionId, options);
				let appends = 0;
				return {
					sessionId: writer.sessionId,
					flush: () => writer.flush(),
					close: () => writer.close(),
					async append(records) {
						// The header went in at create; the first write of the run (its settings) fails.
						if (appends++ === 0) throw new Error("disk full");
						return writer.append(records);
					},
				};
			},
		};
		const session = await Session.create(failing);
		faux.setResponses(["never reached"]);
		const agent = new Agent({ initialState: { model: faux.getModel() }, store: bindSession(session) });
		await agent.prompt("hello");
		// The settings record failed first; the prompt's append then fails with that cause.
		expect(agent.state.errorMessage).toContain("(disk full)");
		expect(faux.state.requests).toHaveLength(0);
		await expect(session.append({ role: "user", content: "more", timestamp: 1 })).rejects.toThrow(
			"can no longer be written: an earlier append failed (disk full)",
		);
	});

	it("edits an earlier prompt and tries again with fork(), and switches back with switchBranch()", async () => {
		const session = await createTestSession();
		faux.setResponses(["Paris.", "Lyon is not the capital.", "Berlin."]);
		const agent = new Agent({ initialState: { model: faux.getModel() }, store: bindSession(session) });
		await agent.prompt("Capital of France?");
		await agent.prompt("Capital of Germany? (typo: Lyon)");
		const firstLeaf = session.leafId as string;

		const editedPrompt = agent.state.messages[2];
		const parentId = session.getRecord(session.idOf(editedPrompt) as string)?.parentId ?? null;
		await agent.fork(parentId);
		expect(describeMessages(agent.state.messages)).toEqual(["user: Capital of France?", "assistant: Paris."]);
		await agent.prompt("Capital of Germany?");
		expect(describeMessages(agent.state.messages).slice(2)).toEqual([
			"user: Capital of Germany?",
			"assistant: Berlin.",
		]);
		// The model saw the edited branch only.
		expect(faux.state.requests[2].context.messages).toHaveLength(3);

		expect(session.branches().map((branch) => branch.current)).toEqual([false, true]);
		await agent.switchBranch(firstLeaf);
		expect(describeMessages(agent.state.messages).at(-1)).toBe("assistant: Lyon is not the capital.");
	});

	it("keeps every call paired on disk when a run is aborted mid-tool or steered past its calls", async () => {
		const session = await createTestSession();
		const slow = controlledTool("slow");
		faux.setResponses([
			fauxAssistantMessage([fauxToolCall("slow", {}, "call_1"), fauxToolCall("slow", {}, "call_2")]),
			fauxAssistantMessage([fauxToolCall("slow", {}, "call_3"), fauxToolCall("slow", {}, "call_4")]),
			"ok, stopping",
		]);
		const agent = new Agent({
			initialState: { model: faux.getModel(), tools: [slow.tool] },
			store: bindSession(session),
			toolExecution: "sequential",
		});
		const aborted = agent.prompt("run both");
		await slow.whenStarted(1);
		agent.abort();
		await aborted;
		const steered = agent.prompt("run two more");
		await slow.whenStarted(2);
		agent.steer({ role: "user", content: "stop", timestamp: Date.now() });
		slow.finish("call_3");
		await steered;

		const results = session.messages().filter((message) => message.role === "toolResult");
		expect(results.map((message) => [message.toolCallId, message.isError])).toEqual([
			["call_1", true],
			["call_2", true],
			["call_3", false],
			["call_4", true],
		]);
		expect(session.unansweredToolCalls()).toEqual([]);
		expect(session.messages()).toEqual(agent.state.messages);
	});

	it("refuses branch changes while running", async () => {
		const session = await createTestSession();
		faux.setResponses(["slow"]);
		const agent = new Agent({ initialState: { model: faux.getModel() }, store: bindSession(session) });
		const running = agent.prompt("hi");
		await expect(agent.fork(null)).rejects.toThrow("agent.fork() cannot run while the agent is processing");
		await running;
	});

	it("refuses a pausedRun option beside a store, before the store is opened", async () => {
		const session = await createTestSession();
		const pausedRun = { version: 1, pauseId: "p", assistantMessage: {}, calls: [] } as never;
		expect(() => new Agent({ store: bindSession(session), pausedRun })).toThrow(
			"With a store, the paused run comes from the store: pass it to the store (bindSession(session, { pausedRun })), not to the Agent",
		);
	});

	it("starts a new root in the session on reset()", async () => {
		const session = await createTestSession();
		faux.setResponses(["one", "two"]);
		const agent = new Agent({ initialState: { model: faux.getModel() }, store: bindSession(session) });
		await agent.prompt("first conversation");
		agent.reset();
		await agent.prompt("second conversation");
		expect(describeMessages(session.messages())).toEqual(["user: second conversation", "assistant: two"]);
		expect(session.branches()).toHaveLength(2);
	});
});
