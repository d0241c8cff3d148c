// Tool-call arguments a server sends nested absurdly deep (or absurdly long) end as a tool call
// with no arguments and a diagnostic that says why, on every HTTP API, and the conversation that
// holds the call can still be sent: the next request encodes, nothing overflows the stack.
import { describe, expect, it } from "vitest";
import { TOOL_ARGUMENTS_REJECTED } from "../../../src/message/assistant-message-builder.js";
import type { AssistantMessageEvent, ToolCall } from "../../../src/types.js";
import { toolResultMessage, userMessage } from "../../helpers/messages.js";
import { useWireTestServer } from "../../helpers/wire-server.js";
import { API_CASES, TEST_KEY } from "./api-cases.js";

const wire = useWireTestServer();

const DEPTH = 100_000;

/** `{"a":{"a":…1…}}` nested DEPTH levels, in pieces of 16 KB as a server would stream it. */
function deepArgumentPieces(): string[] {
	const text = `${'{"a":'.repeat(DEPTH)}1${"}".repeat(DEPTH)}`;
	const pieces: string[] = [];
	for (let start = 0; start < text.length; start += 16 * 1024) pieces.push(text.slice(start, start + 16 * 1024));
	return pieces;
}

describe.each(API_CASES)("$name tool-call arguments beyond the bounds", (api) => {
	it("nested 100,000 levels deep: no arguments, a diagnostic naming the limit, and the next request still encodes", async () => {
		wire.server.enqueue({ body: [api.toolCallBody(deepArgumentPieces())] }, { body: api.okBody() });
		const context = { messages: [userMessage("Hi")] };
		const first = api.streamContext(wire.server.url, context, { apiKey: TEST_KEY });
		const events: AssistantMessageEvent[] = [];
		for await (const event of first) events.push(event);
		const message = await first.result();

		expect(message.stopReason).toBe("toolUse");
		const toolCall = message.content.find((block): block is ToolCall => block.type === "toolCall");
		expect(toolCall?.arguments).toEqual({});
		expect(message.diagnostics).toContainEqual(
			expect.objectContaining({
				type: TOOL_ARGUMENTS_REJECTED,
				error: {
					message: expect.stringContaining("nested deeper than 100 levels"),
				},
			}),
		);
		// Every event the caller got can be serialised (a proxy forwards them as JSON).
		expect(() => JSON.stringify(events)).not.toThrow();

		const followUp = api.streamContext(
			wire.server.url,
			{
				messages: [
					...context.messages,
					message,
					toolResultMessage(toolCall?.id ?? "", [{ type: "text", text: "invalid arguments" }], {
						toolName: "deep",
						isError: true,
					}),
				],
			},
			{ apiKey: TEST_KEY },
		);
		const next = await followUp.result();
		expect(next.errorMessage).toBeUndefined();
		expect(next.stopReason).toBe("stop");
		expect(wire.server.requests).toHaveLength(2);
	});
});
