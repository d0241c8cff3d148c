// Approvals kept by the session itself: an Agent with a session stores the paused run and every
// decision on its own, and `new Agent({ store: bindSession(session) })` or `resumeAgent(session)` in a new process resumes
// it — the waiting calls are never closed with "interrupted" results.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Message, ToolResultMessage } from "@keel/ai";
import { type FauxProviderRegistration, fauxAssistantMessage, registerFauxProvider } from "@keel/ai/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Agent, type AgentMessage } from "../src/index.js";
import {
	bindSession,
	findPausedToolRun,
	INTERRUPTED_TOOL_TEXT,
	resumeAgent,
	Session,
	type SessionApprovalRecord,
} from "../src/session/index.js";
import { createJsonlTranscriptStore } from "../src/session/jsonl/index.js";
import { textOf } from "./helpers.js";
import { answeringTool } from "./tool-approval-fixtures.js";

const CHILD_PROCESS_TEST_TIMEOUT_MS = 120_000;

let directory: string;
let faux: FauxProviderRegistration;
beforeEach(() => {
	directory = mkdtempSync(join(tmpdir(), "keel-session-approvals-"));
	faux = registerFauxProvider();
});
afterEach(() => {
	faux.unregister();
	rmSync(directory, { recursive: true, force: true });
});

function toolResultsOf(messages: readonly (AgentMessage | Message)[]): ToolResultMessage[] {
	return messages.filter((message): message is ToolResultMessage => (message as Message).role === "toolResult");
}

/** Runs the child process in `mode` until it exits (or is killed) and returns its output and exit. */
function runChild(
	sessionId: string,
	mode: "pause" | "approve-then-crash" | "approve-all-then-crash",
): Promise<{ output: string; code: number | null; signal: NodeJS.Signals | null }> {
	const script = fileURLToPath(new URL("./tool-approval-session-child.ts", import.meta.url));
	const child = spawn(process.execPath, ["--import", "tsx", script, directory, sessionId, mode], {
		stdio: ["ignore", "pipe", "inherit"],
	});
	let output = "";
	child.stdout.setEncoding("utf8");
	child.stdout.on("data", (chunk: string) => {
		output += chunk;
	});
	return new Promise((resolve) => {
		child.on("exit", (code, signal) => resolve({ output, code, signal }));
	});
}

async function pauseInChild(sessionId: string): Promise<void> {
	const { output, code } = await runChild(sessionId, "pause");
	const line = output.split("\n").find((candidate) => candidate.startsWith("paused "));
	if (code !== 0 || !line) throw new Error(`child exited with ${code}; printed: ${output}`);
	const printed = JSON.parse(line.slice("paused ".length)) as { pending: { toolCallId: string }[]; readRuns: string[] };
	expect(printed.pending.map((request) => request.toolCallId)).toEqual(["call-b", "call-d"]);
	expect(printed.readRuns).toEqual(["call-a", "call-c"]);
}

async function readRecords(sessionId: string) {
	return (await createJsonlTranscriptStore({ directory }).read(sessionId)).records;
}

function approvalActions(records: readonly { type: string }[]): string[] {
	return records
		.filter((record): record is SessionApprovalRecord => record.type === "approval")
		.map((record) => `${record.action}${record.toolCallId ? ` ${record.toolCallId}` : ""}`);
}

// Each case starts Node processes that load TypeScript through tsx: seconds each on a busy machine.
describe("tool approvals kept by the session", { timeout: CHILD_PROCESS_TEST_TIMEOUT_MS }, () => {
	it("new Agent({ store: bindSession(session) }) in a new process resumes the paused run: approved and denied calls, results in call order", async () => {
		await pauseInChild("session-1");
		const session = await Session.open(createJsonlTranscriptStore({ directory }), "session-1");
		const read = answeringTool("read");
		const write = answeringTool("write", true);
		faux.setResponses([fauxAssistantMessage("finished")]);
		const agent = new Agent({
			store: bindSession(session),
			initialState: { model: faux.getModel(), tools: [read, write] },
		});

		// Restored, not interrupted: the same calls wait, and nothing was written for them.
		expect(agent.pendingApprovals.map((request) => request.toolCallId)).toEqual(["call-b", "call-d"]);
		expect(toolResultsOf(session.messages())).toEqual([]);
		await expect(agent.prompt("something else")).rejects.toThrow("Agent is waiting for tool approval");

		await agent.decide([
			{ toolCallId: "call-b", approved: true },
			{ toolCallId: "call-d", approved: false, reason: "d is read-only" },
		]);
		await session.close();

		expect(read.runs).toEqual([]);
		expect(write.runs).toEqual(["call-b"]);
		// What the model read next: every result, in call order, the denial's reason included.
		const sent = toolResultsOf(faux.state.requests[0].context.messages);
		expect(sent.map((result) => [result.toolCallId, textOf(result)])).toEqual([
			["call-a", "read:a"],
			["call-b", "write:b"],
			["call-c", "read:c"],
			["call-d", "Tool call was denied: d is read-only"],
		]);

		const records = await readRecords("session-1");
		expect(findPausedToolRun(records)).toBeUndefined();
		expect(approvalActions(records)).toEqual(["requested", "granted call-b", "denied call-d", "completed"]);
		const reopened = await Session.open(createJsonlTranscriptStore({ directory }), "session-1");
		expect(reopened.pausedToolRun()).toBeUndefined();
		expect(textOf(reopened.messages().at(-1) as AgentMessage)).toBe("finished");
		await reopened.close();
	});

	it("resumeAgent(session) keeps the calls waiting, also with the rerun policy", async () => {
		await pauseInChild("session-2");
		const session = await Session.open(createJsonlTranscriptStore({ directory }), "session-2");
		const read = answeringTool("read");
		const write = answeringTool("write", true);
		faux.setResponses([fauxAssistantMessage("finished")]);
		const agent = await resumeAgent(session, {
			interruptedToolCalls: "rerun",
			initialState: { model: faux.getModel(), tools: [read, write] },
		});
		// Neither re-run nor interrupted: the read calls' results are held in the paused run.
		expect(read.runs).toEqual([]);
		expect(write.runs).toEqual([]);
		expect(agent.pendingApprovals.map((request) => request.toolCallId)).toEqual(["call-b", "call-d"]);

		await agent.deny("call-b", "not b");
		expect(agent.pendingApprovals.map((request) => request.toolCallId)).toEqual(["call-d"]);
		await agent.approve("call-d");
		await session.close();
		expect(write.runs).toEqual(["call-d"]);
		const sent = toolResultsOf(faux.state.requests[0].context.messages);
		expect(sent.map((result) => [result.toolCallId, textOf(result)])).toEqual([
			["call-a", "read:a"],
			["call-b", "Tool call was denied: not b"],
			["call-c", "read:c"],
			["call-d", "write:d"],
		]);
		expect(approvalActions(await readRecords("session-2"))).toEqual([
			"requested",
			"denied call-b",
			"requested",
			"granted call-d",
			"completed",
		]);
	});

	it('an approved call cut short by the process dying is rerun after the restart with interruptedToolCalls: "rerun"', async () => {
		await pauseInChild("session-3");
		const crashed = await runChild("session-3", "approve-then-crash");
		expect(crashed.output).toContain('waiting ["call-b","call-d"]');
		expect(crashed.signal).toBe("SIGKILL");
		expect(crashed.output).not.toContain("still alive");
		expect(approvalActions(await readRecords("session-3"))).toEqual(["requested", "granted call-b"]);

		const session = await Session.open(createJsonlTranscriptStore({ directory }), "session-3");
		const write = answeringTool("write", true);
		faux.setResponses([fauxAssistantMessage("finished")]);
		const agent = new Agent({
			store: bindSession(session, { interruptedToolCalls: "rerun" }),
			initialState: { model: faux.getModel(), tools: [answeringTool("read"), write] },
		});
		// The approval is not asked again, and cannot be turned into a denial.
		expect(agent.pendingApprovals.map((request) => request.toolCallId)).toEqual(["call-d"]);
		await expect(agent.deny("call-b", "changed my mind")).rejects.toThrow('Tool call "call-b" was already approved');

		await agent.deny("call-d", "no d");
		await expect(agent.approve("call-b")).rejects.toThrow('No tool call "call-b" is waiting for approval');
		await session.close();
		expect(write.runs).toEqual(["call-b"]);
		expect(faux.state.callCount).toBe(1);
		const sent = toolResultsOf(faux.state.requests[0].context.messages);
		expect(sent.map((result) => result.toolCallId)).toEqual(["call-a", "call-b", "call-c", "call-d"]);
		const records = await readRecords("session-3");
		expect(approvalActions(records)).toEqual(["requested", "granted call-b", "denied call-d", "completed"]);
		const results = records.filter(
			(record) => record.type === "message" && (record as { message: Message }).message.role === "toolResult",
		);
		expect(results).toHaveLength(4);
	});

	it("an approved call cut short by SIGKILL gets the interrupted result after the restart, and continue() goes on", async () => {
		await pauseInChild("session-6");
		const crashed = await runChild("session-6", "approve-all-then-crash");
		expect(crashed.signal).toBe("SIGKILL");
		expect(crashed.output).not.toContain("still alive");
		expect(approvalActions(await readRecords("session-6"))).toEqual(["requested", "granted call-b", "granted call-d"]);

		const session = await Session.open(createJsonlTranscriptStore({ directory }), "session-6");
		const write = answeringTool("write", true);
		faux.setResponses([fauxAssistantMessage("finished")]);
		const agent = new Agent({
			store: bindSession(session),
			initialState: { model: faux.getModel(), tools: [answeringTool("read"), write] },
		});
		// Nothing waits for a decision, and the documented loop goes on with continue().
		expect(agent.pendingApprovals).toEqual([]);
		await expect(agent.prompt("something else")).rejects.toThrow(
			'Agent has a paused run whose calls are all decided ("call-a" (read), "call-b" (write), "call-c" (read), "call-d" (write)): call continue() or decide([]) to finish it, or abort()',
		);
		await agent.continue();
		await session.close();
		expect(write.runs).toEqual([]);
		expect(agent.pausedRun).toBeUndefined();
		const sent = toolResultsOf(faux.state.requests[0].context.messages);
		expect(sent.map((result) => [result.toolCallId, result.isError])).toEqual([
			["call-a", false],
			["call-b", true],
			["call-c", false],
			["call-d", true],
		]);
		expect(textOf(sent[1])).toBe(INTERRUPTED_TOOL_TEXT);
		expect(textOf(agent.state.messages.at(-1) as AgentMessage)).toBe("finished");
		expect(approvalActions(await readRecords("session-6"))).toEqual([
			"requested",
			"granted call-b",
			"granted call-d",
			"completed",
		]);
		// The next process finds nothing waiting.
		const reopened = await Session.open(createJsonlTranscriptStore({ directory }), "session-6");
		expect(new Agent({ store: bindSession(reopened) }).pausedRun).toBeUndefined();
		await reopened.close();
	});

	it("while a call still waits, continue() and prompt() name the waiting calls, ids and tools", async () => {
		await pauseInChild("session-7");
		const session = await Session.open(createJsonlTranscriptStore({ directory }), "session-7");
		const agent = new Agent({
			store: bindSession(session),
			initialState: { model: faux.getModel(), tools: [answeringTool("read"), answeringTool("write", true)] },
		});
		await expect(agent.continue()).rejects.toThrow(
			'Agent is waiting for tool approval ("call-b" (write), "call-d" (write)): call approve(), deny() or abort() first',
		);
		await session.close();
	});

	it('a session opened with load: "context" restores the paused run too', async () => {
		await pauseInChild("session-4");
		const session = await Session.open(createJsonlTranscriptStore({ directory }), "session-4", { load: "context" });
		const write = answeringTool("write", true);
		faux.setResponses([fauxAssistantMessage("finished")]);
		const agent = new Agent({
			store: bindSession(session),
			initialState: { model: faux.getModel(), tools: [answeringTool("read"), write] },
		});
		expect(agent.pendingApprovals.map((request) => request.toolCallId)).toEqual(["call-b", "call-d"]);
		await agent.decide([
			{ toolCallId: "call-d", approved: true },
			{ toolCallId: "call-b", approved: true },
		]);
		await session.close();
		expect(write.runs.sort()).toEqual(["call-b", "call-d"]);
		const sent = toolResultsOf(faux.state.requests[0].context.messages);
		expect(sent.map((result) => result.toolCallId)).toEqual(["call-a", "call-b", "call-c", "call-d"]);
	});

	it("abort() while calls wait stores their aborted results, and the next Agent has nothing waiting", async () => {
		await pauseInChild("session-5");
		const session = await Session.open(createJsonlTranscriptStore({ directory }), "session-5");
		const agent = new Agent({
			store: bindSession(session),
			initialState: { model: faux.getModel(), tools: [answeringTool("read")] },
		});
		expect(agent.pendingApprovals).toHaveLength(2);
		agent.abort();
		await agent.waitForIdle();
		expect(agent.pendingApprovals).toEqual([]);
		await session.close();

		const reopened = await Session.open(createJsonlTranscriptStore({ directory }), "session-5");
		expect(reopened.pausedToolRun()).toBeUndefined();
		const results = toolResultsOf(reopened.messages());
		expect(results.map((result) => [result.toolCallId, textOf(result)])).toEqual([
			["call-a", "read:a"],
			["call-b", "Tool call was not run: the run was aborted while it waited for approval"],
			["call-c", "read:c"],
			["call-d", "Tool call was not run: the run was aborted while it waited for approval"],
		]);
		expect(new Agent({ store: bindSession(reopened) }).pendingApprovals).toEqual([]);
		await reopened.close();
		expect(faux.state.callCount).toBe(0);
	});
});
