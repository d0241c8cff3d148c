import { describe, expect, it } from "vitest";
import {
	encodeMistralRequest,
	mapMistralReasoningEffort,
	mistralOptionsFromSimple,
	normalizeMistralToolCallId,
} from "../../../src/providers/mistral-conversations/index.js";
import type { Context } from "../../../src/types.js";
import { assistantMessage, toolResultMessage, userMessage } from "../../helpers/messages.js";
import { magistralModel, mistralModel } from "./fixtures.js";

const mistral = { api: "mistral-conversations", provider: "mistral", model: "mistral-large-latest" };
const claude = { api: "anthropic-messages", provider: "anthropic", model: "claude-sonnet-4-5" };
const image = { type: "image" as const, data: "aGk=", mimeType: "image/png" };

describe("encodeMistralRequest", () => {
	it("sends the system prompt, text, limits and tools with strict: false", () => {
		const context: Context = {
			systemPrompt: "Be brief.",
			messages: [userMessage("Hi")],
			tools: [{ name: "read", description: "Read a file", parameters: { type: "object", properties: {} } as never }],
		};
		expect(
			encodeMistralRequest(mistralModel(), context, {
				maxTokens: 100,
				temperature: 0.3,
				toolChoice: "any",
				parallelToolCalls: false,
			}),
		).toEqual({
			model: "mistral-large-latest",
			stream: true,
			max_tokens: 100,
			temperature: 0.3,
			messages: [
				{ role: "system", content: "Be brief." },
				{ role: "user", content: "Hi" },
			],
			tools: [
				{
					type: "function",
					function: {
						name: "read",
						description: "Read a file",
						parameters: { type: "object", properties: {} },
						strict: false,
					},
				},
			],
			tool_choice: "any",
			parallel_tool_calls: false,
		});
	});

	it("sends images as image_url chunks, and a note for a model that reads none", () => {
		const context: Context = { messages: [userMessage([{ type: "text", text: "Look" }, image])] };
		expect(encodeMistralRequest(mistralModel(), context).messages[0]).toEqual({
			role: "user",
			content: [
				{ type: "text", text: "Look" },
				{ type: "image_url", image_url: "data:image/png;base64,aGk=" },
			],
		});
		expect(encodeMistralRequest(mistralModel({ input: ["text"] }), context).messages[0]).toEqual({
			role: "user",
			content: [
				{ type: "text", text: "Look" },
				{ type: "text", text: "(image omitted: this model does not accept images)" },
			],
		});
	});

	it("replays this model's thinking as a thinking chunk, and tool calls with their results and tool names", () => {
		const context: Context = {
			messages: [
				userMessage("Read a"),
				assistantMessage(
					{ ...mistral, model: "magistral-medium-latest" },
					[
						{ type: "thinking", thinking: "I should read it." },
						{ type: "text", text: "Reading." },
						{ type: "toolCall", id: "D681PevKs", name: "read", arguments: { path: "a" } },
					],
					{ stopReason: "toolUse" },
				),
				toolResultMessage("D681PevKs", [{ type: "text", text: "" }], { isError: true }),
			],
		};
		expect(encodeMistralRequest(magistralModel(), context).messages.slice(1)).toEqual([
			{
				role: "assistant",
				content: [
					{ type: "thinking", thinking: [{ type: "text", text: "I should read it." }] },
					{ type: "text", text: "Reading." },
				],
				tool_calls: [{ id: "D681PevKs", type: "function", function: { name: "read", arguments: '{"path":"a"}' } }],
			},
			{ role: "tool", tool_call_id: "D681PevKs", name: "read", content: "[tool error] (no tool output)" },
		]);
	});

	it("sends a tool result's images as chunks with its text", () => {
		const context: Context = {
			messages: [
				userMessage("Shot"),
				assistantMessage(mistral, [{ type: "toolCall", id: "abcdefghi", name: "screenshot", arguments: {} }], {
					stopReason: "toolUse",
				}),
				toolResultMessage("abcdefghi", [image], { toolName: "screenshot" }),
			],
		};
		expect(encodeMistralRequest(mistralModel(), context).messages[2]).toEqual({
			role: "tool",
			tool_call_id: "abcdefghi",
			name: "screenshot",
			content: [
				{ type: "text", text: "(see attached image)" },
				{ type: "image_url", image_url: "data:image/png;base64,aGk=" },
			],
		});
	});

	it("turns another API's tool-call ids into 9 alphanumeric characters, and its results with them", () => {
		const context: Context = {
			messages: [
				userMessage("Read a and b"),
				assistantMessage(
					claude,
					[
						{ type: "thinking", thinking: "Two reads.", thinkingSignature: "sig" },
						{ type: "toolCall", id: "toolu_01A09q90qw90lq917835lq9", name: "read", arguments: { path: "a" } },
						{ type: "toolCall", id: "toolu_01B09q90qw90lq917835lq9", name: "read", arguments: { path: "b" } },
					],
					{ stopReason: "toolUse" },
				),
				toolResultMessage("toolu_01A09q90qw90lq917835lq9", [{ type: "text", text: "A" }]),
				toolResultMessage("toolu_01B09q90qw90lq917835lq9", [{ type: "text", text: "B" }]),
			],
		};
		const [, assistant, first, second] = encodeMistralRequest(mistralModel(), context).messages;
		expect(assistant).toMatchObject({ role: "assistant", content: "Two reads." });
		const ids = (assistant as { tool_calls: { id: string }[] }).tool_calls.map((call) => call.id);
		for (const id of ids) expect(id).toMatch(/^[a-zA-Z0-9]{9}$/);
		expect(ids[0]).not.toBe(ids[1]);
		expect(first).toMatchObject({ role: "tool", tool_call_id: ids[0], content: "A" });
		expect(second).toMatchObject({ role: "tool", tool_call_id: ids[1], content: "B" });
	});

	it("keeps a Mistral id as it is and hashes any other id the same way every time", () => {
		expect(normalizeMistralToolCallId("D681PevKs")).toBe("D681PevKs");
		expect(normalizeMistralToolCallId("call_abc|fc_1")).toMatch(/^[a-zA-Z0-9]{9}$/);
		expect(normalizeMistralToolCallId("call_abc|fc_1")).toBe(normalizeMistralToolCallId("call_abc|fc_1"));
	});

	it("sends the session id as prompt_cache_key, unless caching is off", () => {
		const context: Context = { messages: [userMessage("Hi")] };
		expect(encodeMistralRequest(mistralModel(), context, { sessionId: "conversation-42" }).prompt_cache_key).toBe(
			"conversation-42",
		);
		expect(
			encodeMistralRequest(mistralModel(), context, { sessionId: "conversation-42", cacheRetention: "none" }),
		).not.toHaveProperty("prompt_cache_key");
	});

	it("sends prompt_mode and reasoning_effort only to reasoning models", () => {
		const context: Context = { messages: [userMessage("Hi")] };
		const options = { promptMode: "reasoning" as const, reasoningEffort: "high" as const };
		expect(encodeMistralRequest(mistralModel(), context, options)).not.toHaveProperty("prompt_mode");
		expect(encodeMistralRequest(mistralModel(), context, options)).not.toHaveProperty("reasoning_effort");
		expect(encodeMistralRequest(magistralModel(), context, { promptMode: "reasoning" })).toMatchObject({
			prompt_mode: "reasoning",
		});
	});
});

describe("reasoning levels", () => {
	const adjustable = mistralModel({
		id: "mistral-small-2603",
		reasoning: true,
		thinkingLevelMap: { off: "none", minimal: "high", low: "high", medium: "high", high: "high" },
	});

	it("maps a level through the model's thinkingLevelMap, off to none", () => {
		expect(mapMistralReasoningEffort(adjustable, "low")).toBe("high");
		expect(mapMistralReasoningEffort(adjustable, "xhigh")).toBe("high");
		expect(mapMistralReasoningEffort(adjustable, "none")).toBe("none");
		expect(mapMistralReasoningEffort(mistralModel({ reasoning: true }), "medium")).toBe("medium");
	});

	it("streamSimple: a Magistral model gets prompt_mode when a level is set, and nothing when it is not", () => {
		expect(mistralOptionsFromSimple(magistralModel(), { reasoning: "high" }).promptMode).toBe("reasoning");
		const off = mistralOptionsFromSimple(magistralModel(), {});
		expect(off.promptMode).toBeUndefined();
		expect(off.reasoningEffort).toBeUndefined();
	});

	it("streamSimple: an adjustable model gets reasoning_effort, none when reasoning is off", () => {
		const context: Context = { messages: [userMessage("Hi")] };
		const on = encodeMistralRequest(adjustable, context, mistralOptionsFromSimple(adjustable, { reasoning: "medium" }));
		expect(on.reasoning_effort).toBe("high");
		expect(on).not.toHaveProperty("prompt_mode");
		const off = encodeMistralRequest(adjustable, context, mistralOptionsFromSimple(adjustable, {}));
		expect(off.reasoning_effort).toBe("none");
	});

	it("streamSimple: a model without reasoning gets neither field", () => {
		const options = mistralOptionsFromSimple(mistralModel(), { reasoning: "high" });
		expect(options.promptMode).toBeUndefined();
		expect(options.reasoningEffort).toBeUndefined();
	});
});
