import { describe, expect, it } from "vitest";
import { streamAnthropic } from "../../../src/providers/anthropic/index.js";
import { encodeOpenAICompletionsRequest } from "../../../src/providers/openai-completions/encode.js";
import { encodeOpenAIResponsesRequest } from "../../../src/providers/openai-responses/encode.js";
import type { AssistantMessage, Context, Message } from "../../../src/types.js";
import { isContextOverflow } from "../../../src/utils/overflow.js";
import { assistantMessage, toolResultMessage } from "../../helpers/messages.js";
import { testModel } from "../../helpers/models.js";
import { useWireTestServer } from "../../helpers/wire-server.js";
import { claudeModel, errorBody, sseResponse, TEST_KEY, textResponseEvents } from "./fixtures.js";

const wire = useWireTestServer();

function fromOpenAI(
	content: AssistantMessage["content"],
	stopReason: AssistantMessage["stopReason"],
): AssistantMessage {
	return assistantMessage({ api: "openai-responses", provider: "openai", model: "gpt-5" }, content, { stopReason });
}

describe("continuing another API's conversation on Anthropic", () => {
	it("sends foreign thinking as text, normalised ids paired with their results, and drops aborted turns", async () => {
		const responsesId = "call_9f8e|fc_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
		const messages: Message[] = [
			{ role: "user", content: "List the files", timestamp: 1 },
			fromOpenAI(
				[
					{ type: "thinking", thinking: "I should call ls.", thinkingSignature: '{"encrypted_content":"gAAA"}' },
					{ type: "text", text: "Listing.", textSignature: '{"v":1,"id":"msg_1"}' },
					{ type: "toolCall", id: responsesId, name: "ls", arguments: { dir: "." } },
				],
				"toolUse",
			),
			{
				role: "toolResult",
				toolCallId: responsesId,
				toolName: "ls",
				content: [{ type: "text", text: "a.txt" }],
				isError: false,
				timestamp: 3,
			},
			fromOpenAI([{ type: "text", text: "interrupted half sentence" }], "aborted"),
			{ role: "user", content: "Thanks, now summarise", timestamp: 4 },
		];
		wire.server.enqueue(sseResponse(textResponseEvents(["Done."])));
		const result = await streamAnthropic(
			claudeModel({ baseUrl: wire.server.url }),
			{ messages },
			{ apiKey: TEST_KEY },
		).result();
		expect(result.stopReason).toBe("stop");

		const body = wire.server.lastRequest?.json as { messages: { role: string; content: unknown }[] };
		const sent = JSON.stringify(body);
		expect(sent).not.toContain("interrupted half sentence");
		expect(sent).not.toContain("encrypted_content");
		expect(sent).not.toContain("textSignature");
		const toolUse = (body.messages[1].content as { type: string; id?: string }[]).find(
			(block) => block.type === "tool_use",
		);
		expect(toolUse?.id).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
		expect(body.messages[1].content).toEqual([
			{ type: "text", text: "I should call ls." },
			{ type: "text", text: "Listing." },
			{ type: "tool_use", id: toolUse?.id, name: "ls", input: { dir: "." } },
		]);
		expect(body.messages[2]).toEqual({
			role: "user",
			content: [{ type: "tool_result", tool_use_id: toolUse?.id, content: "a.txt" }],
		});
		expect(body.messages.map((message) => message.role)).toEqual(["user", "assistant", "user", "user"]);
	});

	it("recognises Anthropic's prompt-too-long error as a context overflow", async () => {
		wire.server.enqueue({
			status: 400,
			body: errorBody("invalid_request_error", "prompt is too long: 208732 tokens > 200000 maximum"),
		});
		const result = await streamAnthropic(
			claudeModel({ baseUrl: wire.server.url }),
			{ messages: [{ role: "user", content: "x", timestamp: 1 }] },
			{ apiKey: TEST_KEY },
		).result();
		expect(result.errorMessage).toContain(
			"400 prompt is too long: 208732 tokens > 200000 maximum (invalid_request_error)",
		);
		expect(isContextOverflow(result)).toBe(true);
	});

	it("drops Anthropic's server tool blocks and tool caller when the conversation moves to OpenAI", () => {
		const claudeTurn = assistantMessage(
			{ api: "anthropic-messages", provider: "anthropic", model: "claude-sonnet-4-20250514" },
			[
				{
					type: "text",
					text: "",
					textSignature: JSON.stringify({
						type: "anthropic_content_block",
						block: { type: "server_tool_use", id: "srvtoolu_01", name: "web_search", input: { query: "q" } },
					}),
				},
				{ type: "text", text: "Sunny." },
				{
					type: "toolCall",
					id: "toolu_01",
					name: "get_weather",
					arguments: { city: "Paris" },
					thoughtSignature: JSON.stringify({
						type: "anthropic_tool_caller",
						caller: { type: "code_execution_20250825", tool_id: "srvtoolu_01" },
					}),
				},
			],
			{ stopReason: "toolUse" },
		);
		const handoff: Context = {
			messages: [
				{ role: "user", content: "weather?", timestamp: 1 },
				claudeTurn,
				toolResultMessage("toolu_01", [{ type: "text", text: "sunny" }]),
			],
		};
		const openai = { api: "openai-responses", provider: "openai", baseUrl: "https://api.openai.com/v1" } as const;
		const responses = encodeOpenAIResponsesRequest(testModel({ ...openai, id: "gpt-5", name: "GPT-5" }), handoff);
		const completions = encodeOpenAICompletionsRequest(
			testModel({ ...openai, api: "openai-completions", id: "gpt-4o", name: "GPT-4o" }),
			handoff,
		);
		for (const body of [responses, completions]) {
			const sent = JSON.stringify(body);
			expect(sent).toContain("Sunny.");
			expect(sent).toContain("get_weather");
			expect(sent).not.toContain("srvtoolu_01");
			expect(sent).not.toContain("anthropic_");
		}
	});
});
