// A conversation begun on Anthropic (signed thinking, toolu_ ids) and on OpenAI Responses
// (`callId|itemId` ids, encrypted reasoning), continued on Chat Completions.
import { describe, expect, it } from "vitest";
import { streamOpenAICompletions } from "../../../src/providers/openai-completions/index.js";
import type { AssistantMessage, Message } from "../../../src/types.js";
import { assistantMessage, userMessage } from "../../helpers/messages.js";
import { useWireTestServer } from "../../helpers/wire-server.js";
import { serverModel, textStream } from "./fixtures.js";

const wire = useWireTestServer();

function turn(
	api: string,
	provider: string,
	content: AssistantMessage["content"],
	stopReason: AssistantMessage["stopReason"] = "toolUse",
): AssistantMessage {
	return assistantMessage({ api, provider, model: "other-model" }, content, { stopReason });
}

describe("cross-provider handoff to openai-completions", () => {
	it("turns foreign thinking into text, normalises ids, answers orphans and drops failed turns", async () => {
		const messages: Message[] = [
			userMessage("start"),
			turn("anthropic-messages", "anthropic", [
				{ type: "thinking", thinking: "claude thought", thinkingSignature: "sig-abc" },
				{ type: "thinking", thinking: "", thinkingSignature: "encrypted", redacted: true },
				{ type: "toolCall", id: "toolu_01ABC", name: "read", arguments: { path: "a" } },
			]),
			{
				role: "toolResult",
				toolCallId: "toolu_01ABC",
				toolName: "read",
				content: [{ type: "text", text: "file a" }],
				isError: false,
				timestamp: 3,
			},
			turn("openai-responses", "openai", [
				{ type: "toolCall", id: "call_xyz|fc_0123456789abcdef", name: "read", arguments: { path: "b" } },
			]),
			// No result for call_xyz: the next user message gets a synthetic one first.
			userMessage("continue"),
			turn("openai-responses", "openai", [{ type: "text", text: "half" }], "aborted"),
			userMessage("again"),
		];
		wire.server.enqueue({ body: textStream("done") });
		const result = await streamOpenAICompletions(serverModel(wire.server.url), { messages }, { apiKey: "k" }).result();
		expect(result.stopReason).toBe("stop");
		const sent = (wire.server.lastRequest?.json as { messages: unknown[] } | undefined)?.messages;
		expect(sent).toEqual([
			{ role: "user", content: "start" },
			{
				role: "assistant",
				content: "claude thought",
				tool_calls: [{ id: "toolu_01ABC", type: "function", function: { name: "read", arguments: '{"path":"a"}' } }],
			},
			{ role: "tool", tool_call_id: "toolu_01ABC", content: "file a" },
			{
				role: "assistant",
				content: null,
				tool_calls: [{ id: "call_xyz", type: "function", function: { name: "read", arguments: '{"path":"b"}' } }],
			},
			{ role: "tool", tool_call_id: "call_xyz", content: "No result provided" },
			{ role: "user", content: "continue" },
			{ role: "user", content: "again" },
		]);
	});
});
