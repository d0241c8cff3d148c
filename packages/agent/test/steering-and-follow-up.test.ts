import type { Message, ToolResultMessage } from "@keel/ai";
import { describe, expect, it } from "vitest";
import {
	type AgentEvent,
	type AgentLoopConfig,
	type AgentMessage,
	type AgentTool,
	defaultConvertToLlm,
	runAgentLoop,
	SKIPPED_FOR_STEERING_TEXT,
} from "../src/index.js";
import { call, describeEvents, echoTool, scriptedStreamFn, testModel, text, textOf, user } from "./helpers.js";

/** A tool that queues a steering message while it runs, as a user typing mid-run would. */
function typingTool(queue: AgentMessage[], message: string): AgentTool {
	return {
		...echoTool("typing"),
		async execute(_id, params) {
			queue.push(user(message));
			return { content: [{ type: "text", text: `typed:${(params as { value: string }).value}` }], details: {} };
		},
	};
}

async function run(
	tools: AgentTool[],
	responses: Parameters<typeof scriptedStreamFn>[0],
	overrides: Partial<AgentLoopConfig>,
	prompt: AgentMessage = user("go"),
) {
	const events: AgentEvent[] = [];
	const streamFn = scriptedStreamFn(responses);
	const messages = await runAgentLoop(
		[prompt],
		{ systemPrompt: "", messages: [], tools },
		{ model: testModel, convertToLlm: defaultConvertToLlm, ...overrides },
		(event) => {
			events.push(event);
		},
		undefined,
		streamFn,
	);
	const toolResults = messages.filter(
		(message): message is ToolResultMessage => (message as Message).role === "toolResult",
	);
	return { events, messages, toolResults, streamFn };
}

describe("steering checked after each tool (default)", () => {
	it("skips the remaining calls in sequential mode and injects the message before the next call", async () => {
		const queue: AgentMessage[] = [];
		const { events, toolResults, streamFn } = await run(
			[typingTool(queue, "stop, use the other file"), echoTool()],
			[
				{ blocks: [call("typing", { value: "1" }, "c1"), call("echo", { value: "2" }, "c2")] },
				{ blocks: [text("ok, switching")] },
			],
			{ toolExecution: "sequential", getSteeringMessages: () => queue.splice(0) },
		);
		expect(toolResults.map((result) => [textOf(result), result.isError])).toEqual([
			["typed:1", false],
			[SKIPPED_FOR_STEERING_TEXT, true],
		]);
		expect(SKIPPED_FOR_STEERING_TEXT).toBe("Skipped due to queued user message.");
		expect(describeEvents(events)).toEqual([
			"agent_start",
			"turn_start",
			"message_start:user",
			"message_end:user",
			"message_start:assistant",
			"message_end:assistant",
			"tool_execution_start:c1",
			"tool_execution_end:c1",
			"message_start:toolResult(c1)",
			"message_end:toolResult(c1)",
			"tool_execution_start:c2",
			"tool_execution_end:c2:error",
			"message_start:toolResult(c2)",
			"message_end:toolResult(c2)",
			"turn_end:2",
			"turn_start",
			"message_start:user",
			"message_end:user",
			"message_start:assistant",
			"message_end:assistant",
			"turn_end:0",
			"agent_end",
		]);
		const secondContext = streamFn.calls[1].context.messages;
		expect(secondContext.map((message) => message.role)).toEqual([
			"user",
			"assistant",
			"toolResult",
			"toolResult",
			"user",
		]);
		expect(textOf(secondContext[4])).toBe("stop, use the other file");
	});

	it("skips every call, prepared or not, when steering arrives during parallel preparation", async () => {
		const queue: AgentMessage[] = [];
		let executed = 0;
		const counting: AgentTool = {
			...echoTool(),
			async execute() {
				executed++;
				return { content: [], details: {} };
			},
		};
		const { events, toolResults } = await run(
			[counting],
			[
				{ blocks: [call("echo", { value: "1" }, "c1"), call("echo", { value: "2" }, "c2")] },
				{ blocks: [text("heard you")] },
			],
			{
				getSteeringMessages: () => queue.splice(0),
				beforeToolCall: ({ toolCall }) => {
					if (toolCall.id === "c1") queue.push(user("wait"));
					return undefined;
				},
			},
		);
		expect(executed).toBe(0);
		expect(toolResults.map((result) => textOf(result))).toEqual([SKIPPED_FOR_STEERING_TEXT, SKIPPED_FOR_STEERING_TEXT]);
		// One start per call, even for the call that was already prepared.
		expect(describeEvents(events).filter((entry) => entry.startsWith("tool_execution_start"))).toEqual([
			"tool_execution_start:c1",
			"tool_execution_start:c2",
		]);
	});

	it("lets a running parallel batch finish and injects the steering before the next call", async () => {
		const queue: AgentMessage[] = [];
		const { toolResults, streamFn } = await run(
			[typingTool(queue, "also check tests"), echoTool()],
			[
				{ blocks: [call("typing", { value: "1" }, "c1"), call("echo", { value: "2" }, "c2")] },
				{ blocks: [text("done")] },
			],
			{ getSteeringMessages: () => queue.splice(0) },
		);
		expect(toolResults.every((result) => !result.isError)).toBe(true);
		expect(textOf(streamFn.calls[1].context.messages.at(-1) as AgentMessage)).toBe("also check tests");
	});
});

describe('steeringCheck: "after-turn"', () => {
	it("never skips a tool call and injects the steering before the next call", async () => {
		const queue: AgentMessage[] = [];
		const { toolResults, streamFn } = await run(
			[typingTool(queue, "after this, summarise"), echoTool()],
			[
				{ blocks: [call("typing", { value: "1" }, "c1"), call("echo", { value: "2" }, "c2")] },
				{ blocks: [text("summary")] },
			],
			{ toolExecution: "sequential", steeringCheck: "after-turn", getSteeringMessages: () => queue.splice(0) },
		);
		expect(toolResults.map((result) => [textOf(result), result.isError])).toEqual([
			["typed:1", false],
			["echo:2", false],
		]);
		expect(textOf(streamFn.calls[1].context.messages.at(-1) as AgentMessage)).toBe("after this, summarise");
	});
});

describe("steering without tool calls, and before the first turn", () => {
	it("starts another turn when steering arrives while the answer streams", async () => {
		const queue: AgentMessage[] = [];
		const { streamFn, messages } = await run(
			[],
			[
				() => {
					queue.push(user("one more thing"));
					return { blocks: [text("first answer")] };
				},
				{ blocks: [text("second answer")] },
			],
			{ getSteeringMessages: () => queue.splice(0) },
		);
		expect(streamFn.calls).toHaveLength(2);
		expect(messages.map(textOf)).toEqual(["go", "first answer", "one more thing", "second answer"]);
	});

	it("injects messages queued before the run right after the prompt", async () => {
		const queue: AgentMessage[] = [user("queued while idle")];
		const { streamFn, events } = await run([], [{ blocks: [text("answer")] }], {
			getSteeringMessages: () => queue.splice(0),
		});
		expect(streamFn.calls[0].context.messages.map(textOf)).toEqual(["go", "queued while idle"]);
		// Both user messages belong to the first turn.
		expect(describeEvents(events).slice(0, 6)).toEqual([
			"agent_start",
			"turn_start",
			"message_start:user",
			"message_end:user",
			"message_start:user",
			"message_end:user",
		]);
	});
});

describe("follow-ups", () => {
	it("run only when the agent would otherwise stop", async () => {
		const followUps: AgentMessage[] = [user("and then?")];
		const polls: number[] = [];
		let llmCalls = 0;
		const { messages } = await run(
			[echoTool()],
			[
				() => {
					llmCalls++;
					return { blocks: [call("echo", { value: "1" }, "c1")] };
				},
				() => {
					llmCalls++;
					return { blocks: [text("first done")] };
				},
				() => {
					llmCalls++;
					return { blocks: [text("then this")] };
				},
			],
			{
				getFollowUpMessages: () => {
					polls.push(llmCalls);
					return followUps.splice(0);
				},
			},
		);
		// Polled after the second answer (no more tools), then after the third (nothing left).
		expect(polls).toEqual([2, 3]);
		expect(messages.map((message) => `${(message as Message).role}:${textOf(message)}`)).toEqual([
			"user:go",
			"assistant:",
			"toolResult:echo:1",
			"assistant:first done",
			"user:and then?",
			"assistant:then this",
		]);
	});

	it("are not polled after an error ends the run", async () => {
		let polled = false;
		await run([], [{ stopReason: "error", errorMessage: "overloaded" }], {
			getFollowUpMessages: () => {
				polled = true;
				return [user("x")];
			},
		});
		expect(polled).toBe(false);
	});
});
