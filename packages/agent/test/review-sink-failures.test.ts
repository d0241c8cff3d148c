// Review: whichever event the sink throws on, the event tree stays well formed and ends once.
import { describe, expect, it } from "vitest";
import { type AgentEvent, defaultConvertToLlm, runAgentLoop } from "../src/index.js";
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
