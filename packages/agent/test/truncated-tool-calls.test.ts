// A response cut off at the output token limit (stopReason "length") may end in the middle of a tool
// call's arguments: none of its calls runs. Each gets an error result saying why, every call still
// has its tool_execution_start/_end pair, and the next turn lets the model try again.
import { describe, expect, it } from "vitest";
import { Agent, type AgentEvent, TRUNCATED_TOOL_CALL_TEXT } from "../src/index.js";
import { echoTool, eventTreeProblems, scriptedStreamFn, testModel, textOf } from "./helpers.js";

describe("tool calls of a response cut off at the output limit", () => {
	it("are not run: each gets the truncated-call error result, and the model is asked again", async () => {
		let runs = 0;
		const tool = echoTool();
		const execute = tool.execute;
		tool.execute = (...args) => {
			runs++;
			return execute(...args);
		};
		const streamFn = scriptedStreamFn([
			{
				blocks: [
					{ toolCall: { name: "echo", arguments: { value: "a" }, id: "c1" } },
					{ toolCall: { name: "echo", arguments: { value: "b" }, id: "c2" } },
				],
				stopReason: "length",
			},
			{ blocks: [{ text: "shorter this time" }] },
		]);
		const agent = new Agent({ initialState: { model: testModel, tools: [tool] }, streamFn });
		const events: AgentEvent[] = [];
		agent.subscribe((event) => {
			events.push(event);
		});
		await agent.prompt("go");
		expect(runs).toBe(0);
		const results = agent.state.messages.filter((message) => message.role === "toolResult");
		expect(results.map((result) => [result.toolCallId, result.isError, textOf(result)])).toEqual([
			["c1", true, TRUNCATED_TOOL_CALL_TEXT],
			["c2", true, TRUNCATED_TOOL_CALL_TEXT],
		]);
		// The second model call sees both results, and its answer ends the run.
		expect(streamFn.calls).toHaveLength(2);
		expect(streamFn.calls[1].context.messages.filter((message) => message.role === "toolResult")).toHaveLength(2);
		expect(textOf(agent.state.messages.at(-1) as never)).toBe("shorter this time");
		expect(eventTreeProblems(events)).toEqual([]);
	});

	it("a response cut off without tool calls ends the run as before", async () => {
		const streamFn = scriptedStreamFn([{ blocks: [{ text: "a long answ" }], stopReason: "length" }]);
		const agent = new Agent({ initialState: { model: testModel, tools: [echoTool()] }, streamFn });
		await agent.prompt("go");
		expect(streamFn.calls).toHaveLength(1);
		expect(agent.state.messages.map((message) => message.role)).toEqual(["user", "assistant"]);
	});
});
