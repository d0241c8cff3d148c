// validateMessage / parseMessage / validateContext: the one check of a message or a context read
// from JSON, shared by stored sessions and the proxy. Every failure names the field.
import { describe, expect, it } from "vitest";
import {
	DEFAULT_CONTEXT_LIMITS,
	MessageValidationError,
	parseMessage,
	validateContext,
	validateMessage,
} from "../src/index.js";

const assistant = {
	role: "assistant",
	content: [
		{ type: "thinking", thinking: "hm", thinkingSignature: "s" },
		{ type: "text", text: "hi" },
		{ type: "toolCall", id: "c1", name: "add", arguments: { a: 1 } },
	],
	api: "faux",
	provider: "faux",
	model: "m",
	usage: { input: 1 },
	stopReason: "toolUse",
	timestamp: 2,
};

function failure(run: () => unknown): { field: string; message: string } {
	try {
		run();
	} catch (error) {
		if (error instanceof MessageValidationError) return { field: error.field, message: error.message };
		throw error;
	}
	throw new Error("expected a MessageValidationError");
}

describe("validateMessage", () => {
	it("returns a valid message of each role as it is, extra fields kept", () => {
		const user = {
			role: "user",
			content: [{ type: "image", data: "aGk=", mimeType: "image/png" }],
			timestamp: 1,
			mine: 1,
		};
		const toolResult = {
			role: "toolResult",
			toolCallId: "c1",
			toolName: "add",
			content: [],
			isError: false,
			timestamp: 3,
		};
		for (const message of [user, assistant, toolResult]) expect(validateMessage(message)).toBe(message);
	});

	it("accepts a tool result holding a file block, and names a file block with both data and url", () => {
		const toolResult = {
			role: "toolResult",
			toolCallId: "c1",
			toolName: "fetch",
			content: [
				{ type: "text", text: "Fetched." },
				{ type: "file", mimeType: "application/pdf", data: "JVBERg==", filename: "a.pdf" },
			],
			isError: false,
			timestamp: 3,
		};
		expect(validateMessage(toolResult)).toBe(toolResult);
		const both = { type: "file", mimeType: "application/pdf", data: "JVBERg==", url: "https://example.com/a.pdf" };
		expect(failure(() => validateMessage({ ...toolResult, content: [both] }))).toEqual({
			field: "message.content[0]",
			message: "message.content[0] must have exactly one of data (base64) and url",
		});
		expect(
			failure(() => validateMessage({ ...toolResult, content: [{ type: "audio", data: "", mimeType: "audio/wav" }] }))
				.message,
		).toBe('message.content[0].type "audio" is not allowed here (expected text, image, file)');
	});

	it("checks a system message inside the transcript: content, sections, tool changes", () => {
		const system = {
			role: "system",
			content: "From now on, answer in French.",
			sections: { rules: "<rules>Be brief.</rules>", old: null },
			toolsAdded: [{ name: "translate", description: "Translates", parameters: { type: "object" } }],
			toolsRemoved: [{ name: "search" }],
			timestamp: 1,
		};
		expect(validateMessage(system)).toBe(system);
		expect(failure(() => validateMessage({ ...system, sections: { rules: 3 } })).message).toBe(
			"message.sections.rules must be a string or null, got a number",
		);
		expect(failure(() => validateMessage({ ...system, toolsAdded: [{ name: "t", parameters: "x" }] })).field).toBe(
			"message.toolsAdded[0].parameters",
		);
		expect(
			failure(() => validateMessage({ ...system, content: [{ type: "image", data: "", mimeType: "" }] })).message,
		).toBe('message.content[0].type "image" is not allowed here (expected text)');
	});

	it("names the field of a wrong block, a wrong role and a misplaced block type", () => {
		expect(
			failure(() => validateMessage({ role: "user", content: [{ type: "text", text: 5 }], timestamp: 1 })),
		).toEqual({
			field: "message.content[0].text",
			message: "message.content[0].text must be a string, got a number",
		});
		expect(failure(() => validateMessage({ role: "robot" }, "context.messages[3]")).message).toBe(
			'context.messages[3].role must be one of system, user, assistant, toolResult, got "robot"',
		);
		const toolCallInUser = { role: "user", content: [assistant.content[2]], timestamp: 1 };
		expect(failure(() => validateMessage(toolCallInUser)).message).toBe(
			'message.content[0].type "toolCall" is not allowed here (expected text, image, file, audio)',
		);
	});

	it("keeps a block type it does not know by default, and refuses it when asked to", () => {
		const newer = { role: "user", content: [{ type: "video", data: "x" }], timestamp: 1 };
		expect(validateMessage(newer)).toBe(newer);
		expect(failure(() => validateMessage(newer, "message", { unknownBlockTypes: "reject" })).message).toBe(
			'message.content[0].type must be one of text, image, file, audio, got "video"',
		);
	});
});

describe("parseMessage", () => {
	it("parses JSON text and validates it; bad JSON is a MessageValidationError on the message", () => {
		expect(parseMessage(JSON.stringify(assistant))).toEqual(assistant);
		expect(failure(() => parseMessage("{")).message).toMatch(/^message is not valid JSON \(/);
	});
});

describe("validateContext", () => {
	it("keeps only systemPrompt, messages and tools", () => {
		const context = {
			systemPrompt: "s",
			messages: [assistant],
			tools: [{ name: "t", description: "d", parameters: {} }],
			x: 1,
		};
		const { x: _dropped, ...expected } = context;
		expect(validateContext(context)).toEqual(expected);
	});

	it("refuses nesting deeper than maxDepth anywhere, iteratively, naming where", () => {
		let deep: unknown[] = [];
		const root = deep;
		for (let level = 0; level < 200_000; level++) {
			const next: unknown[] = [];
			deep.push(next);
			deep = next;
		}
		const context = {
			messages: [{ ...assistant, content: [{ type: "toolCall", id: "c", name: "n", arguments: { a: root } }] }],
		};
		expect(failure(() => validateContext(context))).toEqual({
			field: "context.messages[0].content[0].arguments.a[0]…",
			message: `context.messages[0].content[0].arguments.a[0]… nests arrays or objects deeper than ${DEFAULT_CONTEXT_LIMITS.maxDepth} levels (maxDepth)`,
		});
		// Depth 6 reaches the tool call's arguments object: within a limit of 6, not of 5.
		const shallow = { messages: [{ ...assistant, content: [assistant.content[2]] }] };
		expect(validateContext(shallow, { maxDepth: 6 })).toEqual(shallow);
		expect(failure(() => validateContext(shallow, { maxDepth: 5 })).field).toBe(
			"context.messages[0].content[0].arguments",
		);
	});

	it("refuses a context that is not an object, and a bad limit as a programming error", () => {
		expect(failure(() => validateContext([])).message).toBe(
			"context must be an object with a messages array, got an array",
		);
		expect(() => validateContext({ messages: [] }, { maxMessages: 1.5 })).toThrow(
			"validateContext: limits.maxMessages must be a positive integer, got 1.5",
		);
	});
});
