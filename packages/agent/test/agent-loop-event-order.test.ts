import type { Message } from "@keel/ai";
import { describe, expect, it } from "vitest";
import { toolPairingProblems } from "../../ai/test/helpers/tool-pairing.js";
import {
	type AgentContext,
	type AgentEvent,
	type AgentLoopConfig,
	type AgentMessage,
	agentLoop,
	agentLoopContinue,
	defaultConvertToLlm,
	runAgentLoop,
	runAgentLoopContinue,
} from "../src/index.js";
import { call, describeEvents, echoTool, scriptedStreamFn, testModel, text, textOf, user } from "./helpers.js";

function config(overrides: Partial<AgentLoopConfig> = {}): AgentLoopConfig {
	return { model: testModel, convertToLlm: defaultConvertToLlm, ...overrides };
}

function context(messages: AgentMessage[] = []): AgentContext {
	return { systemPrompt: "be brief", messages, tools: [echoTool()] };
}

async function collect(stream: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
	const events: AgentEvent[] = [];
	for await (const event of stream) events.push(event);
	return events;
}

describe("agentLoop event order", () => {
	it("emits the tree of a one-turn text answer", async () => {
		const streamFn = scriptedStreamFn([{ blocks: [text("hello")] }]);
		const stream = agentLoop([user("hi")], context(), config(), undefined, streamFn);
		const events = await collect(stream);
		expect(describeEvents(events)).toEqual([
			"agent_start",
			"turn_start",
			"message_start:user",
			"message_end:user",
			"message_start:assistant",
			"message_end:assistant",
			"turn_end:0",
			"agent_end",
		]);
		const updates = events.filter((event) => event.type === "message_update");
		expect(updates.map((event) => event.assistantMessageEvent.type)).toEqual(["text_start", "text_delta", "text_end"]);
		const messages = await stream.result();
		expect(messages.map((message) => (message as Message).role)).toEqual(["user", "assistant"]);
		expect(textOf(messages[1])).toBe("hello");
	});

	it("emits the tree of a tool-call turn followed by an answer", async () => {
		const streamFn = scriptedStreamFn([
			{ blocks: [text("calling"), call("echo", { value: "a" }, "c1")] },
			{ blocks: [text("done")] },
		]);
		const events = await collect(agentLoop([user("hi")], context(), config(), undefined, streamFn));
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
			"turn_end:1",
			"turn_start",
			"message_start:assistant",
			"message_end:assistant",
			"turn_end:0",
			"agent_end",
		]);
		// The second call sees the tool result, in order, after the assistant message.
		const secondCall = streamFn.calls[1].context.messages;
		expect(secondCall.map((message) => message.role)).toEqual(["user", "assistant", "toolResult"]);
		expect(textOf(secondCall[2])).toBe("echo:a");
	});

	it("does not mutate the caller's context and resolves to the new messages only", async () => {
		const history: AgentMessage[] = [user("earlier"), { ...user("reply"), role: "user" }];
		const callerContext = context(history);
		const messages = await runAgentLoop(
			[user("now")],
			callerContext,
			config(),
			() => {},
			undefined,
			scriptedStreamFn([{ blocks: [text("ok")] }]),
		);
		expect(callerContext.messages).toHaveLength(2);
		expect(messages.map((message) => (message as Message).role)).toEqual(["user", "assistant"]);
	});

	it("emits message_start with the final message when a stream has no start event", async () => {
		const streamFn = scriptedStreamFn([{ blocks: [text("quiet")], noStart: true }]);
		const events = await collect(agentLoop([user("hi")], context(), config(), undefined, streamFn));
		expect(describeEvents(events).slice(4, 6)).toEqual(["message_start:assistant", "message_end:assistant"]);
		const start = events[4] as Extract<AgentEvent, { type: "message_start" }>;
		expect(textOf(start.message)).toBe("quiet");
	});

	it("gives each message_update its own copy of the partial, with the raw provider event", async () => {
		const streamFn = scriptedStreamFn([{ blocks: [text("a"), text("b")] }]);
		const events = await collect(agentLoop([user("hi")], context(), config(), undefined, streamFn));
		const updates = events.filter((event) => event.type === "message_update");
		expect(new Set(updates.map((event) => event.message)).size).toBe(updates.length);
		expect(updates.every((event) => "partial" in event.assistantMessageEvent)).toBe(true);
	});
});

describe("a response that fails after a tool call block", () => {
	for (const toolExecution of ["parallel", "sequential"] as const) {
		it(`${toolExecution}: the call is not run and gets a result naming the error; the transcript continues on every API`, async () => {
			let executed = 0;
			const echo = { ...echoTool(), execute: () => Promise.reject(new Error(`ran ${++executed}`)) };
			const streamFn = scriptedStreamFn([
				{
					blocks: [text("calling"), call("echo", { value: "a" }, "c1")],
					stopReason: "error",
					errorMessage: "overloaded_error: Overloaded",
				},
				{ blocks: [text("answer")] },
			]);
			const stream = agentLoop(
				[user("hi")],
				{ systemPrompt: "", messages: [], tools: [echo] },
				config({ toolExecution }),
				undefined,
				streamFn,
			);
			const events = await collect(stream);
			expect(describeEvents(events)).toEqual([
				"agent_start",
				"turn_start",
				"message_start:user",
				"message_end:user",
				"message_start:assistant(error)",
				"message_end:assistant(error)",
				"tool_execution_start:c1",
				"tool_execution_end:c1:error",
				"message_start:toolResult(c1)",
				"message_end:toolResult(c1)",
				"turn_end:1",
				"agent_end",
			]);
			expect(executed).toBe(0);
			const messages = await stream.result();
			expect(textOf(messages[2])).toBe("Tool call was not run: the response failed (overloaded_error: Overloaded)");

			await collect(agentLoopContinue(context(messages), config({ toolExecution }), undefined, streamFn));
			expect(toolPairingProblems(streamFn.calls[1].context)).toEqual([]);
		});
	}
});

describe("agentLoopContinue", () => {
	it("throws pi's texts when there is nothing to continue from", async () => {
		expect(() => agentLoopContinue(context([]), config())).toThrow("Cannot continue: no messages in context");
		const assistantLast = await runAgentLoop(
			[user("hi")],
			context(),
			config(),
			() => {},
			undefined,
			scriptedStreamFn([{ blocks: [text("x")] }]),
		);
		expect(() => agentLoopContinue(context(assistantLast), config())).toThrow(
			"Cannot continue from message role: assistant",
		);
		await expect(runAgentLoopContinue(context([]), config(), () => {})).rejects.toThrow(
			"Cannot continue: no messages in context",
		);
	});

	it("emits no message events for the existing messages", async () => {
		const streamFn = scriptedStreamFn([{ blocks: [text("again")] }]);
		const events = await collect(agentLoopContinue(context([user("hi")]), config(), undefined, streamFn));
		expect(describeEvents(events)).toEqual([
			"agent_start",
			"turn_start",
			"message_start:assistant",
			"message_end:assistant",
			"turn_end:0",
			"agent_end",
		]);
		expect(streamFn.calls[0].context.messages).toHaveLength(1);
	});
});

describe("what reaches the stream function", () => {
	it("runs transformContext then convertToLlm before every call, and resolves the key per call", async () => {
		const order: string[] = [];
		let keyNumber = 0;
		const streamFn = scriptedStreamFn([{ blocks: [call("echo", { value: "v" })] }, { blocks: [text("end")] }]);
		const note = { role: "note", text: "for the UI only", timestamp: 1 } as unknown as AgentMessage;
		await runAgentLoop(
			[user("hi"), note],
			context(),
			config({
				sessionId: "session-1",
				transport: "sse",
				maxRetryDelayMs: 5,
				reasoning: "high",
				apiKey: "fallback",
				transformContext: (messages) => {
					order.push("transform");
					return messages;
				},
				convertToLlm: (messages) => {
					order.push("convert");
					return defaultConvertToLlm(messages);
				},
				getApiKey: (provider) => {
					order.push(`key:${provider}`);
					return `key-${++keyNumber}`;
				},
			}),
			() => {},
			undefined,
			streamFn,
		);
		expect(order).toEqual(["transform", "convert", "key:scripted", "transform", "convert", "key:scripted"]);
		expect(streamFn.calls.map((entry) => entry.options?.apiKey)).toEqual(["key-1", "key-2"]);
		const options = streamFn.calls[0].options;
		expect(options).toMatchObject({ sessionId: "session-1", transport: "sse", maxRetryDelayMs: 5, reasoning: "high" });
		// The application message never reaches the model.
		expect(streamFn.calls[0].context.messages.map((message) => message.role)).toEqual(["user"]);
		expect(streamFn.calls[0].context.systemPrompt).toBe("be brief");
		expect(streamFn.calls[0].context.tools?.map((tool) => tool.name)).toEqual(["echo"]);
	});

	it("falls back to config.apiKey when getApiKey returns undefined", async () => {
		const streamFn = scriptedStreamFn([{ blocks: [text("ok")] }]);
		await runAgentLoop(
			[user("hi")],
			context(),
			config({ apiKey: "configured", getApiKey: () => undefined }),
			() => {},
			undefined,
			streamFn,
		);
		expect(streamFn.calls[0].options?.apiKey).toBe("configured");
	});
});
