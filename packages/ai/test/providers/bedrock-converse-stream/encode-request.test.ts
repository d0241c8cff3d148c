import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { getModel } from "../../../src/index.js";
import {
	bedrockOptionsFromSimple,
	encodeBedrockRequest,
} from "../../../src/providers/bedrock-converse-stream/index.js";
import type { Context } from "../../../src/types.js";
import { assistantMessage, toolResultMessage, userMessage } from "../../helpers/messages.js";
import { bedrockModel } from "./fixtures.js";

const SAME = {
	api: "bedrock-converse-stream",
	provider: "amazon-bedrock",
	model: "anthropic.claude-sonnet-4-20250514-v1:0",
};
const FOREIGN = { api: "openai-responses", provider: "openai", model: "gpt-5" };
const PNG = "iVBORw0KGgo="; // the first bytes of a PNG file

const READ_TOOL = { name: "read", description: "Read a file", parameters: Type.Object({ path: Type.String() }) };

const nova = bedrockModel({ id: "amazon.nova-pro-v1:0", reasoning: false });
const llama = bedrockModel({ id: "meta.llama3-3-70b-instruct-v1:0", reasoning: false, input: ["text"] });

describe("encodeBedrockRequest", () => {
	it("puts the system prompt in system blocks and a cache point after it and the last user message", () => {
		const request = encodeBedrockRequest(bedrockModel(), { systemPrompt: "Be brief", messages: [userMessage("Hi")] });
		expect(request.system).toEqual([{ text: "Be brief" }, { cachePoint: { type: "default" } }]);
		expect(request.messages?.[0].content).toEqual([{ text: "Hi" }, { cachePoint: { type: "default" } }]);
	});

	it("asks for a one-hour cache with cacheRetention long, and none with none", () => {
		const context: Context = { systemPrompt: "S", messages: [userMessage("Hi")] };
		expect(encodeBedrockRequest(bedrockModel(), context, { cacheRetention: "long" }).system?.[1]).toEqual({
			cachePoint: { type: "default", ttl: "1h" },
		});
		const none = encodeBedrockRequest(bedrockModel(), context, { cacheRetention: "none" });
		expect(none.system).toEqual([{ text: "S" }]);
		expect(none.messages?.[0].content).toEqual([{ text: "Hi" }]);
	});

	it("sends cache points to Nova but not to models without prompt caching", () => {
		const context: Context = { systemPrompt: "S", messages: [userMessage("Hi")] };
		expect(encodeBedrockRequest(nova, context).system).toHaveLength(2);
		expect(encodeBedrockRequest(llama, context).system).toEqual([{ text: "S" }]);
		const legacyClaude = bedrockModel({ id: "anthropic.claude-3-haiku-20240307-v1:0" });
		expect(encodeBedrockRequest(legacyClaude, context).system).toEqual([{ text: "S" }]);
	});

	it("opens the first user message with the system prompt for a model without system prompts (compat)", () => {
		const model = bedrockModel({
			id: "mistral.mistral-7b",
			compat: { supportsSystemPrompt: false, supportsPromptCache: false },
		});
		const request = encodeBedrockRequest(model, { systemPrompt: "Rules", messages: [userMessage("Hi")] });
		expect(request.system).toBeUndefined();
		expect(request.messages).toEqual([{ role: "user", content: [{ text: "Rules" }, { text: "Hi" }] }]);
	});

	it("sends images as base64 bytes (the JSON wire form) with their format, and a note for a text-only model", () => {
		const context: Context = {
			messages: [
				userMessage([
					{ type: "text", text: "What is it?" },
					{ type: "image", data: PNG, mimeType: "image/png" },
				]),
			],
		};
		const content = encodeBedrockRequest(bedrockModel(), context, { cacheRetention: "none" }).messages?.[0].content;
		expect(content?.[1]).toEqual({
			image: { format: "png", source: { bytes: PNG } },
		});
		expect(encodeBedrockRequest(llama, context).messages?.[0].content?.[1]).toEqual({
			text: "(image omitted: this model does not accept images)",
		});
	});

	it("rejects an image format Bedrock does not take, saying which it takes", () => {
		const context: Context = { messages: [userMessage([{ type: "image", data: PNG, mimeType: "image/bmp" }])] };
		expect(() => encodeBedrockRequest(bedrockModel(), context)).toThrow(
			'Bedrock accepts image/jpeg, image/png, image/gif and image/webp images, got "image/bmp"; convert the image first',
		);
	});

	it("sends tools as toolSpec with the JSON schema, and maps toolChoice", () => {
		const tools = [{ name: "read", description: "Read a file", parameters: Type.Object({ path: Type.String() }) }];
		const context: Context = { messages: [userMessage("Hi")], tools };
		const request = encodeBedrockRequest(bedrockModel(), context, { toolChoice: { tool: "read" } });
		// As sent: TypeBox's symbol keys are not part of the JSON.
		expect(JSON.parse(JSON.stringify(request.toolConfig))).toEqual({
			tools: [
				{
					toolSpec: {
						name: "read",
						description: "Read a file",
						inputSchema: { json: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } },
					},
				},
			],
			toolChoice: { tool: { name: "read" } },
		});
		expect(encodeBedrockRequest(bedrockModel(), context, { toolChoice: "any" }).toolConfig?.toolChoice).toEqual({
			any: {},
		});
		expect(encodeBedrockRequest(bedrockModel(), context, { toolChoice: "none" }).toolConfig).toBeUndefined();
	});

	it("replays tool calls as toolUse and joins consecutive tool results into one user message with a status", () => {
		const context: Context = {
			tools: [READ_TOOL],
			messages: [
				userMessage("Read both"),
				assistantMessage(SAME, [
					{ type: "toolCall", id: "t1", name: "read", arguments: { path: "a" } },
					{ type: "toolCall", id: "t2", name: "read", arguments: { path: "b" } },
				]),
				toolResultMessage("t1", [{ type: "text", text: "A" }]),
				toolResultMessage("t2", [{ type: "text", text: "missing" }], { isError: true }),
			],
		};
		const messages = encodeBedrockRequest(bedrockModel(), context, { cacheRetention: "none" }).messages;
		expect(messages?.[1]).toEqual({
			role: "assistant",
			content: [
				{ toolUse: { toolUseId: "t1", name: "read", input: { path: "a" } } },
				{ toolUse: { toolUseId: "t2", name: "read", input: { path: "b" } } },
			],
		});
		expect(messages?.[2]).toEqual({
			role: "user",
			content: [
				{ toolResult: { toolUseId: "t1", content: [{ text: "A" }], status: "success" } },
				{ toolResult: { toolUseId: "t2", content: [{ text: "missing" }], status: "error" } },
			],
		});
	});

	it("sends earlier tool calls and results as text in a request without tools, which Converse requires", () => {
		const context: Context = {
			messages: [
				userMessage("Read a"),
				assistantMessage(SAME, [{ type: "toolCall", id: "t1", name: "read", arguments: { path: "a" } }]),
				toolResultMessage("t1", [{ type: "text", text: "A" }]),
				userMessage("Thanks"),
			],
		};
		const request = encodeBedrockRequest(bedrockModel(), context, { cacheRetention: "none" });
		expect(request.toolConfig).toBeUndefined();
		expect(request.messages?.slice(1)).toEqual([
			{ role: "assistant", content: [{ text: '[Tool call read: {"path":"a"}]' }] },
			{ role: "user", content: [{ text: "[Tool result read: A]" }, { text: "Thanks" }] },
		]);
	});

	it("sends a catalogue model without streamed tool use no toolConfig and its tool history as text", () => {
		// Llama 4 takes tools through Converse only; ConverseStream with a toolConfig is a 400.
		const maverick = getModel("amazon-bedrock", "meta.llama4-maverick-17b-instruct-v1:0");
		const context: Context = {
			tools: [READ_TOOL],
			messages: [
				userMessage("Read a"),
				assistantMessage(SAME, [{ type: "toolCall", id: "t1", name: "read", arguments: { path: "a" } }]),
				toolResultMessage("t1", [{ type: "text", text: "A" }]),
				userMessage("Thanks"),
			],
		};
		const request = encodeBedrockRequest(maverick, context);
		expect(request.toolConfig).toBeUndefined();
		expect(request.messages?.slice(1)).toEqual([
			{ role: "assistant", content: [{ text: '[Tool call read: {"path":"a"}]' }] },
			{ role: "user", content: [{ text: "[Tool result read: A]" }, { text: "Thanks" }] },
		]);
	});

	it("replays Claude's signed reasoning to the same model and another model's thinking as text", () => {
		const own = assistantMessage(SAME, [
			{ type: "thinking", thinking: "mine", thinkingSignature: "sig" },
			{ type: "text", text: "A" },
		]);
		const foreign = assistantMessage(FOREIGN, [
			{ type: "thinking", thinking: "theirs", thinkingSignature: '{"encrypted":1}' },
			{ type: "text", text: "B" },
		]);
		const context: Context = { messages: [userMessage("1"), own, userMessage("2"), foreign, userMessage("3")] };
		const messages = encodeBedrockRequest(bedrockModel(), context, { cacheRetention: "none" }).messages;
		expect(messages?.[1].content).toEqual([
			{ reasoningContent: { reasoningText: { text: "mine", signature: "sig" } } },
			{ text: "A" },
		]);
		expect(messages?.[3].content).toEqual([{ text: "theirs" }, { text: "B" }]);
	});

	it("normalises a foreign tool-call id to Bedrock's pattern in the call and its result", () => {
		const context: Context = {
			tools: [READ_TOOL],
			messages: [
				userMessage("go"),
				assistantMessage(FOREIGN, [{ type: "toolCall", id: "call_1|fc_1", name: "read", arguments: {} }]),
				toolResultMessage("call_1|fc_1", [{ type: "text", text: "ok" }]),
			],
		};
		const messages = encodeBedrockRequest(bedrockModel(), context, { cacheRetention: "none" }).messages;
		expect(messages?.[1].content?.[0]).toMatchObject({ toolUse: { toolUseId: "call_1_fc_1" } });
		expect(messages?.[2].content?.[0]).toMatchObject({ toolResult: { toolUseId: "call_1_fc_1" } });
	});

	it("sends Claude's budget thinking with the interleaved-thinking beta and no temperature", () => {
		const request = encodeBedrockRequest(
			bedrockModel(),
			{ messages: [userMessage("Hi")] },
			{
				thinkingEnabled: true,
				thinkingBudgetTokens: 4096,
				maxTokens: 8192,
				temperature: 0.2,
			},
		);
		expect(request.additionalModelRequestFields).toEqual({
			thinking: { type: "enabled", budget_tokens: 4096 },
			anthropic_beta: ["interleaved-thinking-2025-05-14"],
		});
		expect(request.inferenceConfig).toEqual({ maxTokens: 8192 });
	});

	it("sends adaptive thinking with an effort to Claude 4.6 and later, including inference profile ids", () => {
		const model = bedrockModel({ id: "global.anthropic.claude-opus-4-6-v1" });
		const request = encodeBedrockRequest(
			model,
			{ messages: [userMessage("Hi")] },
			{ thinkingEnabled: true, effort: "max" },
		);
		expect(request.modelId).toBe("global.anthropic.claude-opus-4-6-v1");
		expect(request.additionalModelRequestFields).toEqual({
			thinking: { type: "adaptive" },
			output_config: { effort: "max" },
		});
	});

	it("asks Claude Opus 4.7 and later for summarized thinking and never sends them a temperature", () => {
		const model = bedrockModel({ id: "us.anthropic.claude-opus-4-7" });
		const thinking = encodeBedrockRequest(model, { messages: [userMessage("Hi")] }, { thinkingEnabled: true });
		expect(thinking.additionalModelRequestFields).toEqual({
			thinking: { type: "adaptive", display: "summarized" },
			output_config: { effort: "high" },
		});
		const plain = encodeBedrockRequest(model, { messages: [userMessage("Hi")] }, { temperature: 0.3, maxTokens: 100 });
		expect(plain.inferenceConfig).toEqual({ maxTokens: 100 });
	});

	it("sends no thinking fields to a model that is not Claude", () => {
		const model = bedrockModel({ id: "deepseek.r1-v1:0", reasoning: true });
		const request = encodeBedrockRequest(
			model,
			{ messages: [userMessage("Hi")] },
			{ thinkingEnabled: true, temperature: 0.5 },
		);
		expect(request.additionalModelRequestFields).toBeUndefined();
		expect(request.inferenceConfig).toEqual({ maxTokens: 21333, temperature: 0.5 });
	});

	it("passes an application inference profile ARN as the model id", () => {
		const arn = "arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/abc123";
		const model = bedrockModel({ id: arn, compat: { claudeThinking: true, supportsPromptCache: true } });
		const request = encodeBedrockRequest(
			model,
			{ messages: [userMessage("Hi")] },
			{ thinkingEnabled: true, maxTokens: 4000 },
		);
		expect(request.modelId).toBe(arn);
		expect(request.additionalModelRequestFields).toMatchObject({ thinking: { type: "enabled", budget_tokens: 1024 } });
	});
});

describe("bedrockOptionsFromSimple", () => {
	it("maps a reasoning level to a Claude budget on top of maxTokens", () => {
		const options = bedrockOptionsFromSimple(bedrockModel(), { reasoning: "medium", maxTokens: 4000 });
		expect(options).toMatchObject({ thinkingEnabled: true, thinkingBudgetTokens: 8192, maxTokens: 12192 });
	});

	it("maps a reasoning level to an effort for adaptive Claude models", () => {
		const options = bedrockOptionsFromSimple(bedrockModel({ id: "us.anthropic.claude-opus-4-6-v1" }), {
			reasoning: "low",
		});
		expect(options).toMatchObject({ thinkingEnabled: true, effort: "low" });
	});

	it("turns thinking off for models that are not Claude", () => {
		const options = bedrockOptionsFromSimple(bedrockModel({ id: "amazon.nova-premier-v1:0" }), { reasoning: "high" });
		expect(options.thinkingEnabled).toBe(false);
	});
});
