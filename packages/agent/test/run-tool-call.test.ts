// runToolCall: one tool call through the steps a model's call goes through (lookup, validation,
// beforeToolCall, execution, afterToolCall), without events or messages, never rejecting.
import { type AssistantMessage, Type } from "@keel/ai";
import { describe, expect, it } from "vitest";
import { type AgentTool, runToolCall } from "../src/index.js";
import { echoTool, textOf } from "./helpers.js";

const assistantMessage: AssistantMessage = {
	role: "assistant",
	content: [],
	api: "faux",
	provider: "faux",
	model: "m",
	usage: {
		input: 0,
		output: 0,
		cacheRead: 0,
		cacheWrite: 0,
		totalTokens: 0,
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
	},
	stopReason: "toolUse",
	timestamp: 0,
};
const context = { systemPrompt: "", messages: [] };
const call = (name: string, args: Record<string, unknown>) => ({
	type: "toolCall" as const,
	id: "c1",
	name,
	arguments: args,
});

describe("runToolCall", () => {
	it("runs the tool with validated arguments and passes partial results to onUpdate", async () => {
		const updates: string[] = [];
		const streaming: AgentTool = {
			name: "count",
			label: "count",
			description: "counts",
			parameters: Type.Object({ to: Type.Number() }),
			async execute(_id, params, _signal, onUpdate) {
				for (let index = 1; index <= (params as { to: number }).to; index++) {
					onUpdate?.({ content: [{ type: "text", text: String(index) }], details: undefined });
				}
				return { content: [{ type: "text", text: "counted" }], details: undefined };
			},
		};
		const outcome = await runToolCall(call("count", { to: 2 }), {
			tools: [streaming],
			assistantMessage,
			context,
			onUpdate: (partial) => void updates.push(textOf(partial as never)),
		});
		expect(outcome.isError).toBe(false);
		expect(textOf(outcome.result as never)).toBe("counted");
		expect(updates).toEqual(["1", "2"]);
	});

	it("applies beforeToolCall's refusal and afterToolCall's replacement", async () => {
		const blocked = await runToolCall(call("echo", { value: "x" }), {
			tools: [echoTool()],
			assistantMessage,
			context,
			beforeToolCall: () => ({ block: true, reason: "not allowed here" }),
		});
		expect(blocked).toMatchObject({ isError: true });
		expect(textOf(blocked.result as never)).toBe("not allowed here");
		const replaced = await runToolCall(call("echo", { value: "x" }), {
			tools: [echoTool()],
			assistantMessage,
			context,
			afterToolCall: () => ({ content: [{ type: "text", text: "redacted" }] }),
		});
		expect(textOf(replaced.result as never)).toBe("redacted");
	});

	it("returns errors for an unknown tool, invalid arguments and a throwing tool instead of rejecting", async () => {
		const unknown = await runToolCall(call("nope", {}), { tools: [echoTool()], assistantMessage, context });
		expect(unknown.isError).toBe(true);
		expect(textOf(unknown.result as never)).toContain('Tool "nope" not found');
		const invalid = await runToolCall(call("echo", { other: true }), {
			tools: [echoTool()],
			assistantMessage,
			context,
		});
		expect(invalid.isError).toBe(true);
		const throwing: AgentTool = {
			...echoTool("boom"),
			async execute() {
				throw new Error("disk full");
			},
		};
		const thrown = await runToolCall(call("boom", { value: "x" }), { tools: [throwing], assistantMessage, context });
		expect(thrown).toMatchObject({ isError: true });
		expect(textOf(thrown.result as never)).toContain("disk full");
	});
});
