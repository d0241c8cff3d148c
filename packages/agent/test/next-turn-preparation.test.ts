// prepareNextTurn, beforeToolCall's { block, terminate }, tool-result usage, peekQueuedMessages and
// setDefaultStreamFn: the hooks a pi 1.5 program uses, on Keel's Agent and loop.
import { type Model, Type, type Usage } from "@keel/ai";
import { afterEach, describe, expect, it } from "vitest";
import {
	type AfterToolCallResult,
	Agent,
	type AgentEvent,
	type AgentTool,
	type StreamFn,
	setDefaultStreamFn,
} from "../src/index.js";
import { call, echoTool, scriptedStreamFn, testModel, text, textOf, user } from "./helpers.js";

const otherModel: Model = { ...testModel, id: "second-model" };

const toolUsage: Usage = {
	input: 3,
	output: 4,
	cacheRead: 0,
	cacheWrite: 0,
	totalTokens: 7,
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0.5 },
};

/** The scripted stream function, also recording which model and reasoning each call got. */
function recordingStreamFn(responses: Parameters<typeof scriptedStreamFn>[0]) {
	const scripted = scriptedStreamFn(responses);
	const seen: { model: string; reasoning: unknown }[] = [];
	const streamFn: StreamFn = (model, context, options) => {
		seen.push({ model: model.id, reasoning: options?.reasoning });
		return scripted(model, context, options);
	};
	return { streamFn, seen, calls: scripted.calls };
}

afterEach(() => setDefaultStreamFn(undefined));

describe("prepareNextTurn", () => {
	it("switches model and thinking level for the next call and adds messages before it", async () => {
		const { streamFn, seen, calls } = recordingStreamFn([
			{ blocks: [call("echo", { value: "1" })] },
			{ blocks: [text("done")] },
		]);
		const turnsSeen: string[] = [];
		const agent = new Agent({
			initialState: { model: testModel, tools: [echoTool()], thinkingLevel: "low" },
			streamFn,
			prepareNextTurn: (turn) => {
				turnsSeen.push(turn.toolResults.map((result) => textOf(result)).join());
				return { model: otherModel, thinkingLevel: "high", messages: [user("note from the host")] };
			},
		});
		const events: AgentEvent[] = [];
		agent.subscribe((event) => void events.push(event));
		await agent.prompt("go");
		expect(seen).toEqual([
			{ model: "scripted-model", reasoning: "low" },
			{ model: "second-model", reasoning: "high" },
		]);
		expect(turnsSeen).toEqual(["echo:1"]);
		expect(textOf(calls[1].context.messages.at(-1) as never)).toBe("note from the host");
		const added = events.filter(
			(event) => event.type === "message_end" && textOf(event.message) === "note from the host",
		);
		expect(added).toHaveLength(1);
	});

	it("is not called for a run of one turn, and undefined changes nothing", async () => {
		const { streamFn, seen } = recordingStreamFn([
			{ blocks: [call("echo", { value: "1" })] },
			{ blocks: [text("done")] },
		]);
		let calls = 0;
		const single = new Agent({
			initialState: { model: testModel },
			streamFn: recordingStreamFn([{ blocks: [text("hi")] }]).streamFn,
			prepareNextTurn: () => void calls++,
		});
		await single.prompt("one");
		expect(calls).toBe(0);
		const agent = new Agent({
			initialState: { model: testModel, tools: [echoTool()] },
			streamFn,
			prepareNextTurn: () => undefined,
		});
		await agent.prompt("two");
		expect(seen.map((entry) => entry.model)).toEqual(["scripted-model", "scripted-model"]);
	});

	it("a throwing prepareNextTurn ends the run with an error message, events well formed", async () => {
		const { streamFn } = recordingStreamFn([{ blocks: [call("echo", { value: "1" })] }, { blocks: [text("done")] }]);
		const agent = new Agent({
			initialState: { model: testModel, tools: [echoTool()] },
			streamFn,
			prepareNextTurn: () => {
				throw new Error("router unavailable");
			},
		});
		const events: AgentEvent[] = [];
		agent.subscribe((event) => void events.push(event));
		await agent.prompt("go");
		expect(events.at(-1)?.type).toBe("agent_end");
		const last = agent.state.messages.at(-1);
		expect(last?.role === "assistant" && last.errorMessage).toContain("router unavailable");
	});
});

describe("beforeToolCall { block, terminate }", () => {
	it("a refusal with terminate ends the run after that turn", async () => {
		const { streamFn, seen } = recordingStreamFn([
			{ blocks: [call("echo", { value: "1" })] },
			{ blocks: [text("never")] },
		]);
		const agent = new Agent({
			initialState: { model: testModel, tools: [echoTool()] },
			streamFn,
			beforeToolCall: async () => ({ block: true, reason: "not allowed here", terminate: true }),
		});
		await agent.prompt("go");
		expect(seen).toHaveLength(1);
		const result = agent.state.messages.at(-1);
		expect(result?.role === "toolResult" && [textOf(result), result.isError]).toEqual(["not allowed here", true]);
	});

	it("a refusal without terminate lets the model answer it", async () => {
		const { streamFn, seen } = recordingStreamFn([
			{ blocks: [call("echo", { value: "1" })] },
			{ blocks: [text("ok")] },
		]);
		const agent = new Agent({
			initialState: { model: testModel, tools: [echoTool()] },
			streamFn,
			beforeToolCall: async () => ({ block: true, reason: "no" }),
		});
		await agent.prompt("go");
		expect(seen).toHaveLength(2);
	});
});

describe("tool results carry usage", () => {
	it("the tool's usage reaches tool_execution_end, and afterToolCall may replace it", async () => {
		const spending: AgentTool = {
			name: "spend",
			label: "spend",
			description: "calls a model itself",
			parameters: Type.Object({}),
			async execute() {
				return { content: [{ type: "text", text: "spent" }], details: {}, usage: toolUsage };
			},
		};
		const run = async (afterToolCall?: () => Promise<AfterToolCallResult>) => {
			const { streamFn } = recordingStreamFn([{ blocks: [call("spend")] }, { blocks: [text("done")] }]);
			const agent = new Agent({ initialState: { model: testModel, tools: [spending] }, streamFn, afterToolCall });
			const ends: AgentEvent[] = [];
			agent.subscribe((event) => void (event.type === "tool_execution_end" && ends.push(event)));
			await agent.prompt("go");
			return ends[0]?.type === "tool_execution_end" ? (ends[0].result as { usage?: Usage }).usage : undefined;
		};
		expect(await run()).toEqual(toolUsage);
		const replaced = { ...toolUsage, totalTokens: 99 };
		expect(await run(async () => ({ usage: replaced }))).toEqual(replaced);
	});
});

describe("peekQueuedMessages", () => {
	it("shows what the next drain takes, steering first, without taking it", () => {
		const agent = new Agent({ initialState: { model: testModel }, steeringMode: "one-at-a-time", followUpMode: "all" });
		agent.followUp(user("later 1"));
		agent.followUp(user("later 2"));
		expect(agent.peekQueuedMessages().map(textOf)).toEqual(["later 1", "later 2"]);
		agent.steer(user("now 1"));
		agent.steer(user("now 2"));
		expect(agent.peekQueuedMessages().map(textOf)).toEqual(["now 1"]);
		expect(agent.peekQueuedMessages().map(textOf)).toEqual(["now 1"]);
		expect(agent.hasQueuedMessages()).toBe(true);
	});
});

describe("setDefaultStreamFn", () => {
	it("is used by an Agent given no streamFn, even one built before it was set; undefined restores the default", async () => {
		const agent = new Agent({ initialState: { model: testModel } });
		const { streamFn, seen } = recordingStreamFn([{ blocks: [text("from the installed default")] }]);
		setDefaultStreamFn(streamFn);
		await agent.prompt("hi");
		expect(seen).toHaveLength(1);
		expect(textOf(agent.state.messages.at(-1) as never)).toBe("from the installed default");
		setDefaultStreamFn(undefined);
		expect(() => setDefaultStreamFn("nope" as never)).toThrow(TypeError);
	});
});
