import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import type { Context, SystemMessage, Tool } from "../src/types.js";
import {
	findSystemMessageProblem,
	foldSystemMessages,
	keepSystemMessagesInPlace,
	renderSystemMessageUpdate,
	resolveCurrentTools,
} from "../src/utils/system-messages.js";
import { userMessage } from "./helpers/messages.js";

const tool = (name: string, description = `The ${name} tool`): Tool => ({
	name,
	description,
	parameters: Type.Object({}),
});
const system = (fields: Partial<SystemMessage>): SystemMessage => ({
	role: "system",
	content: "",
	timestamp: 1,
	...fields,
});

describe("foldSystemMessages", () => {
	it("replays instructions in order, then the current sections in the order first declared, dropping removed ones", () => {
		const context: Context = {
			systemPrompt: "Base.",
			messages: [
				system({ content: "One.", sections: { rules: "<rules>A</rules>", tone: "<tone>dry</tone>", old: "<old/>" } }),
				userMessage("hi"),
				system({ content: [{ type: "text", text: "Two." }], sections: { rules: "<rules>B</rules>", old: null } }),
			],
		};
		const folded = foldSystemMessages(context);
		expect(folded.systemPrompt).toBe("Base.\n\nOne.\n\nTwo.\n\n<rules>B</rules>\n\n<tone>dry</tone>");
		expect(folded.messages).toEqual([userMessage("hi")]);
	});

	it("returns the context's own fields untouched when there is no system message", () => {
		const context: Context = { systemPrompt: "Base.", messages: [userMessage("hi")], tools: [tool("read")] };
		const folded = foldSystemMessages(context);
		expect(folded.messages).toBe(context.messages);
		expect(folded.tools).toBe(context.tools);
	});

	it("gives a prompt from system messages alone, and none when everything is empty", () => {
		expect(foldSystemMessages({ messages: [system({ content: "Only this." })] }).systemPrompt).toBe("Only this.");
		expect(foldSystemMessages({ messages: [system({ content: " " })] }).systemPrompt).toBeUndefined();
	});
});

describe("keepSystemMessagesInPlace", () => {
	it("folds only the system messages before the conversation and keeps the later ones", () => {
		const later = system({ content: "Later." });
		const resolved = keepSystemMessagesInPlace({
			systemPrompt: "Base.",
			messages: [system({ content: "Leading." }), userMessage("hi"), later],
		});
		expect(resolved.systemPrompt).toBe("Base.\n\nLeading.");
		expect(resolved.messages).toEqual([userMessage("hi"), later]);
	});
});

describe("resolveCurrentTools", () => {
	it("adds, replaces by name and removes tools in transcript order", () => {
		const messages = [
			system({ toolsAdded: [tool("grep"), tool("read", "Reads v2")] }),
			userMessage("hi"),
			system({ toolsRemoved: [{ name: "write" }] }),
		];
		const tools = resolveCurrentTools([tool("read"), tool("write")], messages);
		expect(tools?.map((entry) => [entry.name, entry.description])).toEqual([
			["grep", "The grep tool"],
			["read", "Reads v2"],
		]);
	});

	it("is undefined without base tools or changes", () => {
		expect(resolveCurrentTools(undefined, [userMessage("hi")])).toBeUndefined();
	});
});

describe("renderSystemMessageUpdate", () => {
	it("names each section change and each tool change", () => {
		const text = renderSystemMessageUpdate(
			system({
				content: "Be careful.",
				sections: { rules: "<rules>B</rules>", old: null },
				toolsAdded: [tool("grep")],
				toolsRemoved: [{ name: "read" }],
			}),
		);
		expect(text).toBe(
			[
				"Be careful.",
				'The prompt section "rules" now reads:\n<rules>B</rules>',
				'The prompt section "old" no longer applies.',
				"Tools now available: grep.",
				"Tools no longer available: read.",
			].join("\n\n"),
		);
	});
});

describe("findSystemMessageProblem", () => {
	it.each([
		[
			{ content: 5 },
			"context.messages[0] (system) has content type number: expected a string or an array of text blocks",
		],
		[{ content: "x", sections: ["a"] }, "context.messages[0] (system) has sections an array of other values"],
		[
			{ content: "x", sections: { rules: 3 } },
			'has section "rules" of type number: expected a string, or null to remove it',
		],
		[{ content: "x", toolsAdded: [{}] }, "has toolsAdded an array of other values: expected an array of tools"],
		[{ content: "x", toolsRemoved: "read" }, "has toolsRemoved type string: expected an array of { name } references"],
	])("names the field and what it expects: %j", (fields, expected) => {
		expect(findSystemMessageProblem([{ role: "system", timestamp: 1, ...fields }])).toContain(expected);
	});

	it("accepts a well-formed message and ignores other roles", () => {
		expect(
			findSystemMessageProblem([
				system({ content: [{ type: "text", text: "x" }], sections: { a: null } }),
				userMessage("hi"),
			]),
		).toBeUndefined();
	});

	it("ends a fold with the problem instead of a crash", () => {
		const bad = { messages: [{ role: "system", content: null, timestamp: 1 }] } as unknown as Context;
		expect(() => foldSystemMessages(bad)).toThrow("context.messages[0] (system) has content null");
	});
});
