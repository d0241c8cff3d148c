// A tool's own usage is kept on its toolResult message, and a tool may report a failure without
// throwing (`isError: true`), keeping its details and usage.
import { type ToolResultMessage, Type, type Usage, validateMessage } from "@keel/ai";
import { fauxAssistantMessage, fauxToolCall, registerFauxProvider } from "@keel/ai/testing";
import { expect, it } from "vitest";
import { Agent, type AgentEvent, type AgentTool } from "../src/index.js";

const spent: Usage = {
	input: 100,
	output: 20,
	cacheRead: 0,
	cacheWrite: 0,
	totalTokens: 120,
	cost: { input: 0.1, output: 0.2, cacheRead: 0, cacheWrite: 0, total: 0.3 },
};

function tool(name: string, result: Awaited<ReturnType<AgentTool["execute"]>>): AgentTool {
	return { name, label: name, description: name, parameters: Type.Object({}), execute: async () => result };
}

it("keeps a tool's usage on its toolResult message, reports isError without a throw, and adds no usage key when none was given", async () => {
	const faux = registerFauxProvider();
	try {
		faux.setResponses([
			fauxAssistantMessage([
				fauxToolCall("costly", {}, "c1"),
				fauxToolCall("refusing", {}, "c2"),
				fauxToolCall("plain", {}, "c3"),
			]),
			"done",
		]);
		const agent = new Agent({
			initialState: {
				model: faux.getModel(),
				tools: [
					tool("costly", { content: [{ type: "text", text: "ok" }], details: { rows: 3 }, usage: spent }),
					tool("refusing", {
						content: [{ type: "text", text: "quota exceeded" }],
						details: { retryAfter: 60 },
						usage: spent,
						isError: true,
					}),
					tool("plain", { content: [{ type: "text", text: "plain" }], details: {} }),
				],
			},
		});
		const ends: Extract<AgentEvent, { type: "tool_execution_end" }>[] = [];
		agent.subscribe((event) => {
			if (event.type === "tool_execution_end") ends.push(event);
		});
		await agent.prompt("go");
		const results = agent.state.messages.filter(
			(message) => (message as { role: string }).role === "toolResult",
		) as ToolResultMessage[];
		expect(results.map((result) => [result.toolName, result.isError])).toEqual([
			["costly", false],
			["refusing", true],
			["plain", false],
		]);
		expect(results[0].usage).toEqual(spent);
		expect(results[1].usage).toEqual(spent);
		expect(results[1].details).toEqual({ retryAfter: 60 });
		expect("usage" in results[2]).toBe(false);
		expect(ends.find((end) => end.toolName === "refusing")?.isError).toBe(true);
	} finally {
		faux.unregister();
	}
});

it("validates a toolResult message's usage as an object when it has one", () => {
	const message = { role: "toolResult", toolCallId: "c1", toolName: "t", content: [], isError: false, timestamp: 1 };
	expect(validateMessage({ ...message, usage: spent })).toMatchObject({ usage: spent });
	expect(validateMessage(message)).not.toHaveProperty("usage");
	expect(() => validateMessage({ ...message, usage: "lots" })).toThrow("message.usage");
});
