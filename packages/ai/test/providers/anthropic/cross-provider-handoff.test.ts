import { describe, expect, it } from "vitest";
import { streamAnthropic } from "../../../src/providers/anthropic/index.js";
import type { AssistantMessage, Message } from "../../../src/types.js";
import { isContextOverflow } from "../../../src/utils/overflow.js";
import { assistantMessage } from "../../helpers/messages.js";
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
		expect(result.errorMessage).toBe("400 prompt is too long: 208732 tokens > 200000 maximum (invalid_request_error)");
		expect(isContextOverflow(result)).toBe(true);
	});
});
