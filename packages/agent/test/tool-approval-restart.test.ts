// Approvals survive a restart: the paused run is stored in a JSONL session, and a new process (or a
// fresh Agent over a new store instance) rebuilds the run from the file and resumes it.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Message, ToolResultMessage } from "@keel/ai";
import {
	type FauxProviderRegistration,
	fauxAssistantMessage,
	fauxToolCall,
	registerFauxProvider,
} from "@keel/ai/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Agent, type AgentMessage } from "../src/index.js";
import { loadPausedToolRun, recordToolApprovalDecision, type SessionApprovalRecord } from "../src/session/index.js";
import { createJsonlTranscriptStore } from "../src/session/jsonl/index.js";
import { textOf } from "./helpers.js";
import { answeringTool, messagesOf, persistAgent } from "./tool-approval-fixtures.js";

const CHILD_PROCESS_TEST_TIMEOUT_MS = 120_000;

let directory: string;
let faux: FauxProviderRegistration;
beforeEach(() => {
	directory = mkdtempSync(join(tmpdir(), "keel-approvals-"));
	faux = registerFauxProvider();
});
afterEach(() => {
	faux.unregister();
	rmSync(directory, { recursive: true, force: true });
});

function toolResultsOf(messages: readonly (AgentMessage | Message)[]): ToolResultMessage[] {
	return messages.filter((message): message is ToolResultMessage => (message as Message).role === "toolResult");
}

/** Runs the child process to its pause and returns what it printed. */
function runChildUntilPaused(sessionId: string): Promise<{ pending: { toolCallId: string }[]; readRuns: string[] }> {
	const script = fileURLToPath(new URL("./tool-approval-child.ts", import.meta.url));
	const child = spawn(process.execPath, ["--import", "tsx", script, directory, sessionId], {
		stdio: ["ignore", "pipe", "inherit"],
	});
	let output = "";
	child.stdout.setEncoding("utf8");
	child.stdout.on("data", (chunk: string) => {
		output += chunk;
	});
	return new Promise((resolve, reject) => {
		child.on("exit", (code) => {
			const line = output.split("\n").find((candidate) => candidate.startsWith("paused "));
			if (code !== 0 || !line) reject(new Error(`child exited with ${code}; printed: ${output}`));
			else resolve(JSON.parse(line.slice("paused ".length)));
		});
	});
}

/** A fresh process's view of the session: a new store instance, the transcript and the paused run read back. */
async function reopen(sessionId: string) {
	const store = createJsonlTranscriptStore({ directory });
	const { records } = await store.read(sessionId);
	const { messages, lastId } = messagesOf(records);
	const pausedRun = await loadPausedToolRun(store, sessionId);
	return { store, records, messages, lastId, pausedRun };
}

// Each case starts Node processes that load TypeScript through tsx: seconds each on a busy machine.
describe("tool approval across a restart", { timeout: CHILD_PROCESS_TEST_TIMEOUT_MS }, () => {
	it("a run paused in another process resumes here from the JSONL session, ungated results kept, in call order", async () => {
		const printed = await runChildUntilPaused("restart-1");
		expect(printed.pending.map((request) => request.toolCallId)).toEqual(["call-b"]);
		expect(printed.readRuns).toEqual(["call-a", "call-c"]);

		const { store, messages, lastId, pausedRun } = await reopen("restart-1");
		expect(pausedRun?.calls.map((call) => call.status)).toEqual(["done", "pending", "done"]);
		const read = answeringTool("read");
		const write = answeringTool("write", true);
		faux.setResponses([fauxAssistantMessage("finished")]);
		const agent = new Agent({ initialState: { model: faux.getModel(), tools: [read, write], messages }, pausedRun });
		expect(agent.pendingApprovals.map((request) => request.toolCallId)).toEqual(["call-b"]);
		const writer = await store.openWriter("restart-1");
		persistAgent(agent, writer, lastId, pausedRun);
		await agent.approve("call-b");
		await writer.close();

		// The ungated calls ran once, in the first process; the approved one once, here.
		expect(read.runs).toEqual([]);
		expect(write.runs).toEqual(["call-b"]);
		const sent = toolResultsOf(faux.state.requests[0].context.messages);
		expect(sent.map((result) => textOf(result))).toEqual(["read:a", "write:b", "read:c"]);

		const after = await reopen("restart-1");
		expect(after.pausedRun).toBeUndefined();
		expect(toolResultsOf(after.messages).map((result) => result.toolCallId)).toEqual(["call-a", "call-b", "call-c"]);
		const actions = after.records
			.filter((record): record is SessionApprovalRecord => record.type === "approval")
			.map((record) => record.action);
		expect(actions).toEqual(["requested", "granted", "completed"]);
	});

	it("a decision made before a restart is kept: the new process neither asks again nor runs the call twice", async () => {
		await runChildUntilPaused("restart-2");
		// The first process recorded the approval and stopped before the tool ran.
		const first = await reopen("restart-2");
		const decider = await first.store.openWriter("restart-2");
		await recordToolApprovalDecision(decider, first.pausedRun as never, { toolCallId: "call-b", approved: true });
		await decider.close();

		const { store, messages, lastId, pausedRun } = await reopen("restart-2");
		const write = answeringTool("write", true);
		faux.setResponses([fauxAssistantMessage("finished")]);
		const agent = new Agent({
			initialState: { model: faux.getModel(), tools: [answeringTool("read"), write], messages },
			pausedRun,
		});
		expect(agent.pendingApprovals).toEqual([]);
		await expect(agent.deny("call-b", "no")).rejects.toThrow('Tool call "call-b" was already approved');
		const writer = await store.openWriter("restart-2");
		persistAgent(agent, writer, lastId, pausedRun);
		await agent.approve("call-b");
		await agent.approve("call-b");
		await writer.close();
		expect(write.runs).toEqual(["call-b"]);
		expect(faux.state.callCount).toBe(1);
		const granted = (await reopen("restart-2")).records.filter(
			(record) => record.type === "approval" && (record as SessionApprovalRecord).action === "granted",
		);
		expect(granted).toHaveLength(1);
	});

	it("a run paused again after a partial decision keeps the first approval's result through the next restart", async () => {
		const sessionId = "restart-3";
		const store = createJsonlTranscriptStore({ directory });
		const writer = await store.openWriter(sessionId, { create: { v: 1, type: "session", sessionId, timestamp: 1 } });
		faux.setResponses([
			fauxAssistantMessage([fauxToolCall("write", { value: "1" }, "w1"), fauxToolCall("write", { value: "2" }, "w2")]),
		]);
		const firstWrite = answeringTool("write", true);
		const firstAgent = new Agent({ initialState: { model: faux.getModel(), tools: [firstWrite] } });
		persistAgent(firstAgent, writer, null);
		await firstAgent.prompt("go");
		await firstAgent.approve("w2");
		expect(firstWrite.runs).toEqual(["w2"]);
		await writer.close();

		const { messages, lastId, pausedRun } = await reopen(sessionId);
		expect(pausedRun?.calls.map((call) => call.status)).toEqual(["pending", "done"]);
		const secondWrite = answeringTool("write", true);
		faux.setResponses([fauxAssistantMessage("finished")]);
		const agent = new Agent({ initialState: { model: faux.getModel(), tools: [secondWrite], messages }, pausedRun });
		const secondWriter = await store.openWriter(sessionId);
		persistAgent(agent, secondWriter, lastId, pausedRun);
		await agent.deny("w1", "only one write");
		await secondWriter.close();

		expect(secondWrite.runs).toEqual([]);
		const sent = toolResultsOf(faux.state.requests[1].context.messages);
		expect(sent.map((result) => [result.toolCallId, textOf(result)])).toEqual([
			["w1", "Tool call was denied: only one write"],
			["w2", "write:2"],
		]);
		expect((await reopen(sessionId)).pausedRun).toBeUndefined();
	});
});
