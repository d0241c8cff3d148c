// Steering that interrupts, end to end over the Anthropic Messages wire format on 127.0.0.1: the
// request cut off mid-stream is aborted on the wire, and the next request body carries what the
// model had written as a plain assistant turn, with no tool_use left without its tool_result
// (https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WireTestServer } from "../../ai/src/testing/wire-test-server.js";
import {
	claudeModel,
	inputJsonDelta,
	messageStart,
	sseResponse,
	TEST_KEY,
	textDelta,
	textResponseEvents,
	textStart,
	toolUseStart,
} from "../../ai/test/providers/anthropic/fixtures.js";
import { Agent, type AgentEvent, isInterruptedMessage, SKIPPED_FOR_INTERRUPT_TEXT } from "../src/index.js";
import { echoTool, eventTreeProblems, textOf, user } from "./helpers.js";

let server: WireTestServer;
beforeAll(async () => {
	server = await WireTestServer.start();
});
afterAll(async () => {
	await server.close();
});

describe("steering that interrupts an Anthropic stream", () => {
	it("aborts the request mid tool call and sends the text written so far as the assistant turn", async () => {
		// Text, then a tool call whose arguments stop half way; the server then holds the stream open.
		server.enqueue(
			sseResponse(
				[
					messageStart({ input_tokens: 20 }),
					textStart(0),
					textDelta(0, "Let me look at the build"),
					toolUseStart(1, "toolu_01", "echo"),
					inputJsonDelta(1, '{"value": "half'),
				],
				{ stall: true },
			),
			sseResponse(textResponseEvents(["Checking production."])),
		);
		const agent = new Agent({
			initialState: { model: claudeModel({ baseUrl: server.url }), tools: [echoTool()] },
			getApiKey: () => TEST_KEY,
		});
		const events: AgentEvent[] = [];
		let steered = false;
		agent.subscribe((event) => {
			events.push(event);
			if (!steered && event.type === "message_update" && event.assistantMessageEvent.type === "toolcall_delta") {
				steered = true;
				agent.steer(user("stop, production is down"), { interrupt: true });
			}
		});
		await agent.prompt("explain the build");

		const interrupted = agent.state.messages[1];
		expect(isInterruptedMessage(interrupted)).toBe(true);
		expect(textOf(interrupted)).toBe("Let me look at the build");
		expect(textOf(agent.state.messages[2])).toBe(SKIPPED_FOR_INTERRUPT_TEXT);
		expect(textOf(agent.state.messages.at(-1) ?? user(""))).toBe("Checking production.");
		expect(agent.state.errorMessage).toBeUndefined();
		expect(eventTreeProblems(events)).toEqual([]);

		expect(server.requests).toHaveLength(2);
		const body = server.requests[1].json as { messages: { role: string; content: unknown }[] };
		expect(body.messages.map((message) => message.role)).toEqual(["user", "assistant", "user"]);
		expect(body.messages[1].content).toEqual([{ type: "text", text: "Let me look at the build" }]);
		expect(JSON.stringify(body.messages)).not.toContain("toolu_01");
		expect(JSON.stringify(body.messages[2].content)).toContain("stop, production is down");
	});
});
