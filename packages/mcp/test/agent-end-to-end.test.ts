// A Keel Agent on the faux provider calling tools of a real MCP server process.
import { Agent, type AgentEvent } from "@keel/agent-core";
import type { ToolResultMessage } from "@keel/ai";
import {
	type FauxProviderRegistration,
	fauxAssistantMessage,
	fauxToolCall,
	registerFauxProvider,
} from "@keel/ai/testing";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { connectMcpServer, type McpServerConnection } from "../src/index.js";
import { everythingServerPath, hostileServerPath } from "./helpers.js";

let faux: FauxProviderRegistration;
let everything: McpServerConnection;
let hostile: McpServerConnection;

beforeAll(async () => {
	[everything, hostile] = await Promise.all([
		connectMcpServer({
			name: "everything",
			transport: { type: "stdio", command: process.execPath, args: [everythingServerPath, "stdio"] },
		}),
		connectMcpServer({
			name: "hostile",
			toolNamePrefix: "hostile_",
			transport: { type: "stdio", command: process.execPath, args: [hostileServerPath] },
		}),
	]);
});
afterAll(async () => {
	await Promise.all([everything?.close(), hostile?.close()]);
});
beforeEach(() => {
	faux = registerFauxProvider();
});
afterEach(() => {
	faux.unregister();
});

function toolResults(agent: Agent): ToolResultMessage[] {
	return agent.state.messages.filter(
		(message): message is ToolResultMessage => (message as ToolResultMessage).role === "toolResult",
	);
}

describe("an Agent with MCP tools", () => {
	it("calls an MCP tool, with arguments coerced by the loop's validation, and gets its result", async () => {
		faux.setResponses([fauxAssistantMessage(fauxToolCall("get-sum", { a: "2", b: 40 }, "c1")), "The sum is 42."]);
		const agent = new Agent({ initialState: { model: faux.getModel(), tools: everything.tools } });
		await agent.prompt("Add 2 and 40");
		const [result] = toolResults(agent);
		expect(result.isError).toBe(false);
		expect(result.content).toEqual([{ type: "text", text: "The sum of 2 and 40 is 42." }]);
		expect(agent.state.errorMessage).toBeUndefined();
	});

	it("streams the server's progress as tool_execution_update events", async () => {
		faux.setResponses([
			fauxAssistantMessage(fauxToolCall("trigger-long-running-operation", { duration: 0.6, steps: 3 }, "c1")),
			"Done.",
		]);
		const agent = new Agent({ initialState: { model: faux.getModel(), tools: everything.tools } });
		const updates: AgentEvent[] = [];
		agent.subscribe((event) => {
			if (event.type === "tool_execution_update") updates.push(event);
		});
		await agent.prompt("Run the long operation");
		expect(updates.length).toBeGreaterThanOrEqual(1); // see published-servers.test.ts on the last steps
		expect(updates[0]).toMatchObject({
			toolCallId: "c1",
			partialResult: { details: { progress: { total: 3 } } },
		});
	});

	it("gives the model the validation error when arguments do not match the MCP input schema", async () => {
		faux.setResponses([fauxAssistantMessage(fauxToolCall("get-sum", { a: "two", b: 40 }, "c1")), "Sorry."]);
		const agent = new Agent({ initialState: { model: faux.getModel(), tools: everything.tools } });
		await agent.prompt("Add two and 40");
		const [result] = toolResults(agent);
		expect(result.isError).toBe(true);
		expect(result.content[0]).toMatchObject({ type: "text", text: expect.stringContaining("Validation failed") });
	});

	it("ends the run when the user aborts during a call that hangs", async () => {
		faux.setResponses([fauxAssistantMessage(fauxToolCall("hostile_hang", {}, "c1")), "never reached"]);
		const agent = new Agent({ initialState: { model: faux.getModel(), tools: hostile.tools } });
		agent.subscribe((event) => {
			if (event.type === "tool_execution_start") agent.abort();
		});
		await agent.prompt("Hang");
		const [result] = toolResults(agent);
		expect(result.isError).toBe(true);
		expect(agent.state.isStreaming).toBe(false);
		expect(hostile.isConnected).toBe(true);
	});
});
