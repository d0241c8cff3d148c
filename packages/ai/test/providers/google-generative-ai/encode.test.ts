import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { IMAGE_OMITTED_NOTE } from "../../../src/message/encode-content.js";
import { encodeGeminiRequest } from "../../../src/providers/google-generative-ai/encode.js";
import {
	SKIP_THOUGHT_SIGNATURE,
	TOOL_RESULT_IMAGE_TEXT,
} from "../../../src/providers/google-generative-ai/encode-messages.js";
import type { Context } from "../../../src/types.js";
import { assistantMessage, toolResultMessage, userMessage } from "../../helpers/messages.js";
import { geminiModel } from "./fixtures.js";

const self = { api: "google-generative-ai", provider: "google", model: "gemini-2.5-flash" };
const image = { type: "image" as const, data: "aW1n", mimeType: "image/png" };

describe("encodeGeminiRequest", () => {
	it("puts the system prompt in systemInstruction, tools in functionDeclarations, and limits in generationConfig", () => {
		const context: Context = {
			systemPrompt: "Be brief.",
			messages: [userMessage("Hi")],
			tools: [{ name: "ls", description: "List files", parameters: Type.Object({ dir: Type.String() }) }],
		};
		const body = encodeGeminiRequest(geminiModel(), context, { maxTokens: 100, temperature: 0.2, toolChoice: "any" });
		expect(body).toEqual({
			contents: [{ role: "user", parts: [{ text: "Hi" }] }],
			systemInstruction: { parts: [{ text: "Be brief." }] },
			tools: [
				{
					functionDeclarations: [
						{
							name: "ls",
							description: "List files",
							parametersJsonSchema: expect.objectContaining({ type: "object", required: ["dir"] }),
						},
					],
				},
			],
			toolConfig: { functionCallingConfig: { mode: "ANY" } },
			generationConfig: { maxOutputTokens: 100, temperature: 0.2 },
		});
	});

	it("sends no toolConfig without tools, and rejects an unknown toolChoice", () => {
		expect(
			encodeGeminiRequest(geminiModel(), { messages: [userMessage("Hi")] }, { toolChoice: "auto" }).toolConfig,
		).toBeUndefined();
		expect(() =>
			encodeGeminiRequest(geminiModel(), { messages: [userMessage("Hi")] }, { toolChoice: "required" as never }),
		).toThrow('toolChoice must be "auto", "none" or "any" for Gemini, got "required"');
	});

	it("sends thinkingConfig with includeThoughts only when thinking is enabled on a reasoning model", () => {
		const context = { messages: [userMessage("Hi")] };
		expect(
			encodeGeminiRequest(geminiModel(), context, { thinking: { enabled: true, budgetTokens: 2048 } }).generationConfig,
		).toEqual({ thinkingConfig: { includeThoughts: true, thinkingBudget: 2048 } });
		expect(
			encodeGeminiRequest(geminiModel({ id: "gemini-3-pro-preview" }), context, {
				thinking: { enabled: true, level: "LOW" },
			}).generationConfig,
		).toEqual({ thinkingConfig: { includeThoughts: true, thinkingLevel: "LOW" } });
		expect(
			encodeGeminiRequest(geminiModel(), context, { thinking: { enabled: false } }).generationConfig,
		).toBeUndefined();
		expect(
			encodeGeminiRequest(geminiModel({ reasoning: false }), context, { thinking: { enabled: true, budgetTokens: 1 } })
				.generationConfig,
		).toBeUndefined();
	});

	it("replays this model's thinking, text and tool-call signatures as model parts", () => {
		const body = encodeGeminiRequest(geminiModel(), {
			messages: [
				userMessage("List"),
				assistantMessage(
					self,
					[
						{ type: "thinking", thinking: "plan", thinkingSignature: "c2lnMQ==" },
						{ type: "text", text: "Listing.", textSignature: "dGV4dA==" },
						{ type: "toolCall", id: "call_1", name: "ls", arguments: { dir: "." }, thoughtSignature: "Zm4x" },
					],
					{ stopReason: "toolUse" },
				),
				toolResultMessage("call_1", [{ type: "text", text: "a.txt" }], { toolName: "ls" }),
			],
		});
		expect(body.contents.slice(1)).toEqual([
			{
				role: "model",
				parts: [
					{ text: "plan", thought: true, thoughtSignature: "c2lnMQ==" },
					{ text: "Listing.", thoughtSignature: "dGV4dA==" },
					{ functionCall: { name: "ls", args: { dir: "." } }, thoughtSignature: "Zm4x" },
				],
			},
			{ role: "user", parts: [{ functionResponse: { name: "ls", response: { output: "a.txt" } } }] },
		]);
	});

	it("sends another model's thinking as text and its tool calls without a signature; Gemini 3 gets the documented skip value", () => {
		const other = { api: "anthropic-messages", provider: "anthropic", model: "claude-sonnet-4" };
		const messages = [
			userMessage("List"),
			assistantMessage(
				other,
				[
					{ type: "thinking", thinking: "plan", thinkingSignature: "anthropic-sig" },
					{ type: "toolCall", id: "toolu_1", name: "ls", arguments: {} },
				],
				{ stopReason: "toolUse" },
			),
			toolResultMessage("toolu_1", [{ type: "text", text: "failed" }], { toolName: "ls", isError: true }),
		];
		const gemini25 = encodeGeminiRequest(geminiModel(), { messages });
		expect(gemini25.contents[1]).toEqual({
			role: "model",
			parts: [{ text: "plan" }, { functionCall: { name: "ls", args: {} } }],
		});
		expect(gemini25.contents[2]).toEqual({
			role: "user",
			parts: [{ functionResponse: { name: "ls", response: { error: "failed" } } }],
		});
		const gemini3 = encodeGeminiRequest(geminiModel({ id: "gemini-3-flash-preview" }), { messages });
		expect(gemini3.contents[1].parts[1]).toEqual({
			functionCall: { name: "ls", args: {} },
			thoughtSignature: SKIP_THOUGHT_SIGNATURE,
		});
	});

	it("does not replay a signature of the same model id from another provider", () => {
		const proxy = { api: "google-generative-ai", provider: "someproxy", model: "gemini-2.5-flash" };
		const body = encodeGeminiRequest(geminiModel(), {
			messages: [userMessage("Hi"), assistantMessage(proxy, [{ type: "text", text: "Yo", textSignature: "dGV4dA==" }])],
		});
		expect(body.contents[1]).toEqual({ role: "model", parts: [{ text: "Yo" }] });
	});

	it("sends user images inline, and a note instead for a text-only model", () => {
		const messages = [userMessage([{ type: "text", text: "What is this?" }, image])];
		expect(encodeGeminiRequest(geminiModel(), { messages }).contents[0].parts).toEqual([
			{ text: "What is this?" },
			{ inlineData: { mimeType: "image/png", data: "aW1n" } },
		]);
		expect(encodeGeminiRequest(geminiModel({ input: ["text"] }), { messages }).contents[0].parts).toEqual([
			{ text: "What is this?" },
			{ text: IMAGE_OMITTED_NOTE },
		]);
	});

	it("merges consecutive tool results into one turn; tool-result images nest on Gemini 3, follow in a user turn before", () => {
		const messages = [
			userMessage("Look"),
			assistantMessage(
				self,
				[
					{ type: "toolCall", id: "a", name: "shot", arguments: {} },
					{ type: "toolCall", id: "b", name: "ls", arguments: {} },
				],
				{ stopReason: "toolUse" },
			),
			toolResultMessage("a", [image], { toolName: "shot" }),
			toolResultMessage("b", [{ type: "text", text: "x" }], { toolName: "ls" }),
		];
		const older = encodeGeminiRequest(geminiModel(), { messages }).contents;
		expect(older.slice(2)).toEqual([
			{
				role: "user",
				parts: [
					{ functionResponse: { name: "shot", response: { output: "(see attached image)" } } },
					{ functionResponse: { name: "ls", response: { output: "x" } } },
				],
			},
			{
				role: "user",
				parts: [{ text: TOOL_RESULT_IMAGE_TEXT }, { inlineData: { mimeType: "image/png", data: "aW1n" } }],
			},
		]);
		const gemini3 = encodeGeminiRequest(geminiModel({ id: "gemini-3-pro-preview" }), { messages }).contents;
		expect(gemini3[2].parts[0]).toEqual({
			functionResponse: {
				name: "shot",
				response: { output: "(see attached image)" },
				parts: [{ inlineData: { mimeType: "image/png", data: "aW1n" } }],
			},
		});
		expect(gemini3).toHaveLength(3);
	});

	it("sends function call and response ids only to partner models that need them, normalised", () => {
		const other = { api: "openai-responses", provider: "openai", model: "gpt-5" };
		const messages = [
			userMessage("List"),
			assistantMessage(other, [{ type: "toolCall", id: "call_1|fc_2", name: "ls", arguments: {} }], {
				stopReason: "toolUse",
			}),
			toolResultMessage("call_1|fc_2", [{ type: "text", text: "x" }], { toolName: "ls" }),
		];
		const claude = encodeGeminiRequest(geminiModel({ id: "claude-sonnet-4-5" }), { messages }).contents;
		expect(claude[1].parts[0].functionCall?.id).toBe("call_1_fc_2");
		expect(claude[2].parts[0].functionResponse?.id).toBe("call_1_fc_2");
		const gemini = encodeGeminiRequest(geminiModel(), { messages }).contents;
		expect(gemini[1].parts[0].functionCall?.id).toBeUndefined();
	});
});
