import { describe, expect, it } from "vitest";
import type { AssistantMessage, ToolResultMessage, UserMessage } from "../src/types.js";
import { createEmptyAssistantMessage } from "../src/utils/event-stream.js";
import { getImages, getMessageText, getThinking, getToolCalls } from "../src/utils/message-content.js";

function assistant(content: AssistantMessage["content"]): AssistantMessage {
	return { ...createEmptyAssistantMessage("faux", "faux", "m"), content };
}

const mixed = assistant([
	{ type: "thinking", thinking: "first thought" },
	{ type: "text", text: "Hello, " },
	{ type: "toolCall", id: "c1", name: "read", arguments: { path: "a" } },
	{ type: "thinking", thinking: "", thinkingSignature: "secret", redacted: true },
	{ type: "text", text: "world" },
	{ type: "thinking", thinking: "second thought" },
	{ type: "toolCall", id: "c2", name: "write", arguments: {} },
]);

describe("getMessageText", () => {
	it("joins the text blocks of an assistant message, leaving out thinking and tool calls", () => {
		expect(getMessageText(mixed)).toBe("Hello, world");
		expect(getMessageText(mixed, "|")).toBe("Hello, |world");
	});

	it("reads user strings, user blocks and tool results", () => {
		const userString: UserMessage = { role: "user", content: "plain", timestamp: 0 };
		const userBlocks: UserMessage = {
			role: "user",
			content: [
				{ type: "text", text: "look " },
				{ type: "image", data: "AAAA", mimeType: "image/png" },
				{ type: "text", text: "here" },
			],
			timestamp: 0,
		};
		const result: ToolResultMessage = {
			role: "toolResult",
			toolCallId: "c1",
			toolName: "read",
			content: [{ type: "text", text: "file body" }],
			isError: false,
			timestamp: 0,
		};
		expect(getMessageText(userString)).toBe("plain");
		expect(getMessageText(userBlocks)).toBe("look here");
		expect(getMessageText(result)).toBe("file body");
	});

	it("is empty for a message without text", () => {
		expect(getMessageText(assistant([]))).toBe("");
	});
});

describe("getToolCalls", () => {
	it("returns the tool calls in order, the same objects", () => {
		const calls = getToolCalls(mixed);
		expect(calls.map((call) => call.id)).toEqual(["c1", "c2"]);
		expect(calls[0]).toBe(mixed.content[2]);
	});

	it("is empty for other roles", () => {
		expect(getToolCalls({ role: "user", content: "x", timestamp: 0 })).toEqual([]);
	});
});

describe("getThinking", () => {
	it("joins readable thinking and skips redacted blocks", () => {
		expect(getThinking(mixed)).toBe("first thought\n\nsecond thought");
		expect(getThinking(mixed, " / ")).toBe("first thought / second thought");
	});

	it("is empty for other roles and for messages without thinking", () => {
		expect(getThinking({ role: "user", content: "x", timestamp: 0 })).toBe("");
		expect(getThinking(assistant([{ type: "text", text: "t" }]))).toBe("");
	});
});

describe("getImages", () => {
	it("returns the image blocks of user and tool-result messages in order", () => {
		const image = { type: "image" as const, data: "AAAA", mimeType: "image/png" };
		const user: UserMessage = { role: "user", content: [{ type: "text", text: "see" }, image], timestamp: 0 };
		expect(getImages(user)).toEqual([image]);
		const result: ToolResultMessage = {
			role: "toolResult",
			toolCallId: "c1",
			toolName: "shot",
			content: [image, image],
			isError: false,
			timestamp: 0,
		};
		expect(getImages(result)).toHaveLength(2);
	});

	it("is empty for string content and assistant messages", () => {
		expect(getImages({ role: "user", content: "x", timestamp: 0 })).toEqual([]);
		expect(getImages(mixed)).toEqual([]);
	});
});
