// Review: whichever event the sink throws on, the event tree stays well formed and ends once.
import type { AssistantMessage, ToolResultMessage } from "@keel/ai";
import { describe, expect, it } from "vitest";
import { type AgentEvent, type AgentMessage, defaultConvertToLlm, runAgentLoop } from "../src/index.js";
import { call, echoTool, scriptedStreamFn, testModel, text, user } from "./helpers.js";

/** The problems of an event sequence: unbalanced turns, messages or tool executions, a missing or repeated agent_end. */
function treeProblems(events: AgentEvent[]): string[] {
	const problems: string[] = [];
	let turnOpen = false;
	let openMessage: unknown;
	const toolStarts = new Map<string, number>();
	const toolEnds = new Map<string, number>();
	events.forEach((event, index) => {
		if (index > 0 && events[index - 1].type === "agent_end") problems.push(`${event.type} after agent_end`);
		switch (event.type) {
			case "turn_start":
				if (turnOpen) problems.push(`turn_start at ${index} inside a turn`);
				turnOpen = true;
				break;
			case "turn_end":
				if (!turnOpen) problems.push(`turn_end at ${index} without turn_start`);
				if (openMessage) problems.push(`turn_end at ${index} with a message open`);
				turnOpen = false;
				break;
			case "message_start":
				if (openMessage) problems.push(`message_start at ${index} before the previous message_end`);
				openMessage = event.message;
				break;
			case "message_end":
				if (!openMessage) problems.push(`message_end at ${index} without message_start`);
				openMessage = undefined;
				break;
			case "tool_execution_start":
				toolStarts.set(event.toolCallId, (toolStarts.get(event.toolCallId) ?? 0) + 1);
				break;
			case "tool_execution_end":
				toolEnds.set(event.toolCallId, (toolEnds.get(event.toolCallId) ?? 0) + 1);
				break;
		}
	});
	for (const [id, count] of toolStarts) {
		if (count !== 1 || toolEnds.get(id) !== 1) problems.push(`${id}: ${count} starts, ${toolEnds.get(id) ?? 0} ends`);
	}
	if (openMessage) problems.push("a message left open");
	if (turnOpen) problems.push("a turn left open");
	if (events.filter((event) => event.type === "agent_end").length !== 1) problems.push("agent_end not exactly once");
	return problems;
}

async function runWithSinkFailingAt(failAt: number, toolExecution: "parallel" | "sequential") {
	const events: AgentEvent[] = [];
	// One steering message and one follow-up, so their message paths are covered too.
	const steering = [user("steer")];
	const followUps = [user("follow")];
	await runAgentLoop(
		[user("hi")],
		{ systemPrompt: "", messages: [], tools: [echoTool()] },
		{
			model: testModel,
			convertToLlm: defaultConvertToLlm,
			toolExecution,
			steeringCheck: "after-turn",
			getSteeringMessages: () => steering.splice(0),
			getFollowUpMessages: () => followUps.splice(0),
		},
		(event) => {
			events.push(event);
			if (events.length === failAt) throw new Error(`sink failed on ${event.type}`);
		},
		undefined,
		scriptedStreamFn([
			{ blocks: [call("echo", { value: "1" }, "c1"), call("echo", { value: "2" }, "c2")] },
			{ blocks: [text("answer to the steering")], noStart: true },
			{ blocks: [text("answer to the follow-up")] },
		]),
	);
	return events;
}

describe("review: a sink that throws on any one event", () => {
	for (const toolExecution of ["parallel", "sequential"] as const) {
		it(`${toolExecution}: the tree stays well formed whichever event fails`, async () => {
			const complete = await runWithSinkFailingAt(0, toolExecution);
			expect(treeProblems(complete)).toEqual([]);
			const failures: string[] = [];
			for (let failAt = 1; failAt <= complete.length; failAt++) {
				const events = await runWithSinkFailingAt(failAt, toolExecution);
				for (const problem of treeProblems(events))
					failures.push(`fail at ${failAt} (${events[failAt - 1].type}): ${problem}`);
			}
			expect(failures).toEqual([]);
		});
	}
});

/** Every tool call of an assistant message is followed by exactly one result each, in call order. */
function transcriptProblems(messages: AgentMessage[]): string[] {
	const problems: string[] = [];
	messages.forEach((message, index) => {
		const assistant = message as AssistantMessage;
		if (assistant.role !== "assistant") return;
		const callIds = assistant.content.filter((block) => block.type === "toolCall").map((block) => block.id);
		const resultIds: string[] = [];
		for (const next of messages.slice(index + 1)) {
			if ((next as { role: string }).role !== "toolResult") break;
			resultIds.push((next as ToolResultMessage).toolCallId);
		}
		if (callIds.join() !== resultIds.join()) problems.push(`calls ${callIds.join()} got results ${resultIds.join()}`);
	});
	return problems;
}

describe("review: abort at any event", () => {
	for (const toolExecution of ["parallel", "sequential"] as const) {
		it(`${toolExecution}: the tree and the transcript stay well formed, with a tool that ignores its signal`, async () => {
			const run = async (abortAt: number | "at-stubborn-start") => {
				const controller = new AbortController();
				const events: AgentEvent[] = [];
				const stubborn = {
					...echoTool("stubborn"),
					// Ignores its signal and never finishes: only the loop's own abort handling ends the wait.
					execute: () => new Promise<never>(() => {}),
				};
				const messages = await runAgentLoop(
					[user("hi")],
					{ systemPrompt: "", messages: [], tools: [echoTool(), stubborn] },
					{ model: testModel, convertToLlm: defaultConvertToLlm, toolExecution },
					(event) => {
						events.push(event);
						const stubbornStarted = event.type === "tool_execution_start" && event.toolCallId === "c2";
						if (events.length === abortAt || (abortAt === "at-stubborn-start" && stubbornStarted)) controller.abort();
					},
					controller.signal,
					scriptedStreamFn([
						{ blocks: [call("echo", { value: "1" }, "c1"), call("stubborn", { value: "2" }, "c2")] },
						{ blocks: [text("done")] },
					]),
				);
				return { events, messages };
			};
			// Without an abort the stubborn tool would hang the run, so every position up to its start is tried.
			const probe = await run("at-stubborn-start");
			const positions =
				probe.events.findIndex((event) => event.type === "tool_execution_start" && event.toolCallId === "c2") + 1;
			expect(positions).toBeGreaterThan(8);
			const failures: string[] = [];
			for (let abortAt = 1; abortAt <= positions; abortAt++) {
				const { events, messages } = await run(abortAt);
				for (const problem of [...treeProblems(events), ...transcriptProblems(messages)]) {
					failures.push(`abort at ${abortAt} (${events[abortAt - 1]?.type}): ${problem}`);
				}
				const last = messages.at(-1) as AssistantMessage;
				if (last.stopReason !== "aborted") failures.push(`abort at ${abortAt}: last message ${last.stopReason}`);
			}
			expect(failures).toEqual([]);
		});
	}
});
