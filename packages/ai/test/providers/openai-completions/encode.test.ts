import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { resolveOpenAICompletionsCompat } from "../../../src/providers/openai-completions/compat.js";
import {
	buildOpenAICompletionsHeaders,
	encodeOpenAICompletionsRequest,
} from "../../../src/providers/openai-completions/encode.js";
import type {
	AssistantMessage,
	Context,
	Message,
	Model,
	ThinkingLevel,
	ToolResultMessage,
} from "../../../src/types.js";
import { assistantMessage, toolResultMessage, userMessage } from "../../helpers/messages.js";
import { completionsModel } from "./fixtures.js";

function assistant(model: Model<"openai-completions">, content: AssistantMessage["content"]): AssistantMessage {
	const stopReason = content.some((block) => block.type === "toolCall") ? "toolUse" : "stop";
	return assistantMessage({ api: model.api, provider: model.provider, model: model.id }, content, { stopReason });
}

function toolResult(toolCallId: string, content: ToolResultMessage["content"]): ToolResultMessage {
	return toolResultMessage(toolCallId, content);
}

const readTool = {
	name: "read",
	description: "Read a file",
	parameters: Type.Object({ path: Type.String() }),
};

const encode = (model: Model<"openai-completions">, context: Context, options = {}) =>
	encodeOpenAICompletionsRequest(model, context, options);

describe("compat detection", () => {
	it("detects vendors from provider and baseUrl, and lets model.compat override each field", () => {
		const openai = resolveOpenAICompletionsCompat(completionsModel());
		expect(openai).toMatchObject({
			supportsStore: true,
			supportsDeveloperRole: true,
			supportsReasoningEffort: true,
			maxTokensField: "max_completion_tokens",
			thinkingFormat: "openai",
			supportsStrictMode: true,
		});
		const zai = resolveOpenAICompletionsCompat(
			completionsModel({ provider: "custom", baseUrl: "https://api.z.ai/v4" }),
		);
		expect(zai).toMatchObject({ supportsStore: false, supportsReasoningEffort: false, thinkingFormat: "zai" });
		expect(resolveOpenAICompletionsCompat(completionsModel({ provider: "xai" })).supportsReasoningEffort).toBe(false);
		expect(
			resolveOpenAICompletionsCompat(completionsModel({ provider: "openai", baseUrl: "https://llm.chutes.ai/v1" }))
				.maxTokensField,
		).toBe("max_tokens");
		expect(resolveOpenAICompletionsCompat(completionsModel({ provider: "openrouter" })).thinkingFormat).toBe(
			"openrouter",
		);
		expect(resolveOpenAICompletionsCompat(completionsModel({ provider: "deepseek" }))).toMatchObject({
			thinkingFormat: "deepseek",
			requiresReasoningContentOnAssistantMessages: true,
		});
		const overridden = resolveOpenAICompletionsCompat(
			completionsModel({ provider: "xai", compat: { supportsReasoningEffort: true, maxTokensField: "max_tokens" } }),
		);
		expect(overridden).toMatchObject({
			supportsReasoningEffort: true,
			maxTokensField: "max_tokens",
			supportsStore: false,
		});
	});

	it("treats a provider without a key variable as a self-hosted server", () => {
		const local = resolveOpenAICompletionsCompat(completionsModel({ provider: "ollama" }));
		expect(local).toMatchObject({
			supportsStore: false,
			supportsDeveloperRole: false,
			maxTokensField: "max_tokens",
			supportsStrictMode: false,
		});
	});
});

describe("encodeOpenAICompletionsRequest: top-level fields", () => {
	const context: Context = { systemPrompt: "Be brief.", messages: [userMessage("Hi")] };

	it("sends OpenAI's defaults: store false, usage in streaming, max_completion_tokens", () => {
		const body = encode(completionsModel(), context, { maxTokens: 100, temperature: 0 });
		expect(body).toEqual({
			model: "gpt-4.1-mini",
			messages: [
				{ role: "system", content: "Be brief." },
				{ role: "user", content: "Hi" },
			],
			stream: true,
			stream_options: { include_usage: true },
			store: false,
			max_completion_tokens: 100,
			temperature: 0,
		});
	});

	it("leaves out store and stream_options, and uses max_tokens, where compat says so", () => {
		const model = completionsModel({
			compat: { supportsStore: false, supportsUsageInStreaming: false, maxTokensField: "max_tokens" },
		});
		const body = encode(model, context, { maxTokens: 100 });
		expect(body.store).toBeUndefined();
		expect(body.stream_options).toBeUndefined();
		expect(body.max_tokens).toBe(100);
		expect(body.max_completion_tokens).toBeUndefined();
	});

	it("sends the system prompt as developer only for reasoning models that accept the role", () => {
		expect(encode(completionsModel({ reasoning: true }), context).messages[0].role).toBe("developer");
		expect(encode(completionsModel({ reasoning: false }), context).messages[0].role).toBe("system");
		const noDeveloper = completionsModel({ reasoning: true, compat: { supportsDeveloperRole: false } });
		expect(encode(noDeveloper, context).messages[0].role).toBe("system");
	});

	it("encodes tools with strict false, or without strict when unsupported", () => {
		const withTools: Context = { messages: [userMessage("Hi")], tools: [readTool] };
		// Through JSON, as it goes on the wire (TypeBox's symbol keys are not sent).
		expect(JSON.parse(JSON.stringify(encode(completionsModel(), withTools).tools))).toEqual([
			{
				type: "function",
				function: {
					name: "read",
					description: "Read a file",
					parameters: {
						type: "object",
						properties: { path: { type: "string" } },
						required: ["path"],
					},
					strict: false,
				},
			},
		]);
		const noStrict = completionsModel({ compat: { supportsStrictMode: false } });
		expect(encode(noStrict, withTools).tools?.[0].function).not.toHaveProperty("strict");
	});

	it("sends tools: [] when the history uses tools but none are given, except to OpenAI itself", () => {
		const model = completionsModel({ provider: "groq", baseUrl: "https://api.groq.com/openai/v1" });
		const history: Context = {
			messages: [
				userMessage("read it"),
				assistant(model, [{ type: "toolCall", id: "call_1", name: "read", arguments: { path: "a" } }]),
				toolResult("call_1", [{ type: "text", text: "contents" }]),
			],
		};
		expect(encode(model, history).tools).toEqual([]);
		expect(encode(completionsModel(), history).tools).toBeUndefined();
	});

	it("passes toolChoice through", () => {
		const body = encode(
			completionsModel(),
			{ messages: [userMessage("Hi")], tools: [readTool] },
			{
				toolChoice: { type: "function", function: { name: "read" } },
			},
		);
		expect(body.tool_choice).toEqual({ type: "function", function: { name: "read" } });
	});
});

describe("encodeOpenAICompletionsRequest: reasoning", () => {
	const context: Context = { messages: [userMessage("Hi")] };
	const levels: ThinkingLevel[] = ["minimal", "low", "medium", "high", "xhigh"];

	it.each(levels)("openai format sends reasoning_effort for %s (xhigh only when the model declares it)", (level) => {
		const body = encode(completionsModel({ reasoning: true }), context, { reasoningEffort: level });
		expect(body.reasoning_effort).toBe(level === "xhigh" ? "high" : level);
	});

	it("keeps xhigh for a model whose thinkingLevelMap declares it", () => {
		const model = completionsModel({ reasoning: true, thinkingLevelMap: { xhigh: "xhigh" } });
		expect(encode(model, context, { reasoningEffort: "xhigh" }).reasoning_effort).toBe("xhigh");
	});

	it("sends nothing for non-reasoning models or when no level is set", () => {
		expect(encode(completionsModel(), context, { reasoningEffort: "high" }).reasoning_effort).toBeUndefined();
		expect(encode(completionsModel({ reasoning: true }), context).reasoning_effort).toBeUndefined();
	});

	it("maps levels through reasoningEffortMap (Groq qwen3-32b only knows `default`)", () => {
		const model = completionsModel({
			provider: "groq",
			id: "qwen/qwen3-32b",
			baseUrl: "https://api.groq.com/openai/v1",
			reasoning: true,
		});
		expect(encode(model, context, { reasoningEffort: "low" }).reasoning_effort).toBe("default");
	});

	it("omits reasoning_effort when supportsReasoningEffort is false", () => {
		const model = completionsModel({ reasoning: true, compat: { supportsReasoningEffort: false } });
		expect(encode(model, context, { reasoningEffort: "high" }).reasoning_effort).toBeUndefined();
	});

	it("z.ai and DeepSeek switch thinking with `thinking: {type}`", () => {
		const zai = completionsModel({ provider: "zai", id: "glm-4.6", reasoning: true });
		expect(encode(zai, context, { reasoningEffort: "low" })).toMatchObject({ thinking: { type: "enabled" } });
		expect(encode(zai, context).thinking).toEqual({ type: "disabled" });
		expect(encode(zai, context, { reasoningEffort: "low" }).reasoning_effort).toBeUndefined();
		const deepseek = completionsModel({ provider: "deepseek", id: "deepseek-v4", reasoning: true });
		expect(encode(deepseek, context, { reasoningEffort: "high" }).thinking).toEqual({ type: "enabled" });
	});

	it("qwen sends enable_thinking, qwen-chat-template sends chat_template_kwargs", () => {
		const qwen = completionsModel({ reasoning: true, compat: { thinkingFormat: "qwen" } });
		expect(encode(qwen, context, { reasoningEffort: "medium" }).enable_thinking).toBe(true);
		expect(encode(qwen, context).enable_thinking).toBe(false);
		const template = completionsModel({ reasoning: true, compat: { thinkingFormat: "qwen-chat-template" } });
		expect(encode(template, context, { reasoningEffort: "medium" }).chat_template_kwargs).toEqual({
			enable_thinking: true,
		});
	});

	it("OpenRouter sends reasoning: {effort} and no reasoning_effort", () => {
		const model = completionsModel({
			provider: "openrouter",
			baseUrl: "https://openrouter.ai/api/v1",
			id: "openai/o4-mini",
			reasoning: true,
		});
		const body = encode(model, context, { reasoningEffort: "medium" });
		expect(body.reasoning).toEqual({ effort: "medium" });
		expect(body.reasoning_effort).toBeUndefined();
	});

	it("z.ai tool streaming is requested with zaiToolStream when tools are sent", () => {
		const model = completionsModel({ provider: "zai", compat: { zaiToolStream: true } });
		expect(encode(model, { messages: [userMessage("x")], tools: [readTool] }).tool_stream).toBe(true);
	});
});

describe("encodeOpenAICompletionsRequest: messages", () => {
	it("sends assistant text as one string, thinking under its streamed field, tool calls with JSON arguments", () => {
		const model = completionsModel({ provider: "groq", reasoning: true });
		const messages: Message[] = [
			userMessage("go"),
			assistant(model, [
				{ type: "thinking", thinking: "plan", thinkingSignature: "reasoning" },
				{ type: "text", text: "Part one. " },
				{ type: "text", text: "Part two." },
				{ type: "toolCall", id: "call_1", name: "read", arguments: { path: "a" } },
			]),
			toolResult("call_1", [
				{ type: "text", text: "line 1" },
				{ type: "text", text: "line 2" },
			]),
		];
		const body = encode(model, { messages });
		expect(body.messages).toEqual([
			{ role: "user", content: "go" },
			{
				role: "assistant",
				content: "Part one. Part two.",
				reasoning: "plan",
				tool_calls: [{ id: "call_1", type: "function", function: { name: "read", arguments: '{"path":"a"}' } }],
			},
			{ role: "tool", tool_call_id: "call_1", content: "line 1\nline 2" },
		]);
	});

	it("sends null content next to tool calls, and drops an empty assistant message", () => {
		const model = completionsModel();
		const body = encode(model, {
			messages: [
				userMessage("a"),
				assistant(model, []),
				userMessage("b"),
				assistant(model, [{ type: "toolCall", id: "call_1", name: "read", arguments: {} }]),
			],
		});
		expect(body.messages.map((message) => message.role)).toEqual(["user", "user", "assistant"]);
		expect(body.messages[2]).toMatchObject({ content: null });
	});

	it("with requiresThinkingAsText, prepends thinking to the text instead of a reasoning field", () => {
		const model = completionsModel({ reasoning: true, compat: { requiresThinkingAsText: true } });
		const body = encode(model, {
			messages: [
				userMessage("q"),
				assistant(model, [
					{ type: "thinking", thinking: "hmm", thinkingSignature: "reasoning_content" },
					{ type: "text", text: "answer" },
				]),
			],
		});
		expect(body.messages[1]).toEqual({ role: "assistant", content: "hmm\n\nanswer" });
	});

	it("DeepSeek: every assistant message carries reasoning_content, empty when there was none", () => {
		const model = completionsModel({ provider: "deepseek", id: "deepseek-v4", reasoning: true });
		const body = encode(model, {
			messages: [userMessage("q"), assistant(model, [{ type: "text", text: "a" }]), userMessage("q2")],
		});
		expect(body.messages[1]).toEqual({ role: "assistant", content: "a", reasoning_content: "" });
	});

	it("replays OpenRouter encrypted reasoning from thoughtSignature as reasoning_details", () => {
		const model = completionsModel({ provider: "openrouter", baseUrl: "https://openrouter.ai/api/v1" });
		const detail = { type: "reasoning.encrypted", id: "call_1", data: "opaque", format: "openai-responses-v1" };
		const body = encode(model, {
			messages: [
				userMessage("q"),
				assistant(model, [
					{ type: "toolCall", id: "call_1", name: "read", arguments: {}, thoughtSignature: JSON.stringify(detail) },
				]),
				toolResult("call_1", [{ type: "text", text: "r" }]),
			],
		});
		expect(body.messages[1]).toMatchObject({ reasoning_details: [detail] });
	});

	it("adds the tool name with requiresToolResultName, and an assistant turn before a following user message", () => {
		const model = completionsModel({
			compat: { requiresToolResultName: true, requiresAssistantAfterToolResult: true },
		});
		const body = encode(model, {
			messages: [
				userMessage("q"),
				assistant(model, [{ type: "toolCall", id: "call_1", name: "read", arguments: {} }]),
				toolResult("call_1", [{ type: "text", text: "r" }]),
				userMessage("next"),
			],
		});
		expect(body.messages.slice(1)).toEqual([
			{
				role: "assistant",
				content: "",
				tool_calls: [{ id: "call_1", type: "function", function: { name: "read", arguments: "{}" } }],
			},
			{ role: "tool", tool_call_id: "call_1", content: "r", name: "read" },
			{ role: "assistant", content: "I have processed the tool results." },
			{ role: "user", content: "next" },
		]);
	});

	it("collects images from consecutive tool results into one user message", () => {
		const model = completionsModel();
		const image = { type: "image" as const, data: "AAAA", mimeType: "image/png" };
		const body = encode(model, {
			messages: [
				userMessage("look"),
				assistant(model, [
					{ type: "toolCall", id: "call_1", name: "read", arguments: {} },
					{ type: "toolCall", id: "call_2", name: "read", arguments: {} },
				]),
				toolResult("call_1", [image]),
				toolResult("call_2", [{ type: "text", text: "text only" }, image]),
			],
		});
		expect(body.messages.slice(2)).toEqual([
			{ role: "tool", tool_call_id: "call_1", content: "(see attached image)" },
			{ role: "tool", tool_call_id: "call_2", content: "text only" },
			{
				role: "user",
				content: [
					{ type: "text", text: "Attached image(s) from tool result:" },
					{ type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } },
					{ type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } },
				],
			},
		]);
	});

	it("drops images for text-only models with a note in their place", () => {
		const model = completionsModel({ input: ["text"] });
		const image = { type: "image" as const, data: "AAAA", mimeType: "image/png" };
		const body = encode(model, {
			messages: [
				{ role: "user", content: [{ type: "text", text: "what is this?" }, image], timestamp: 1 },
				assistant(model, [{ type: "toolCall", id: "call_1", name: "read", arguments: {} }]),
				toolResult("call_1", [image]),
			],
		});
		const note = "(image omitted: this model does not accept images)";
		expect(body.messages[0]).toEqual({
			role: "user",
			content: [
				{ type: "text", text: "what is this?" },
				{ type: "text", text: note },
			],
		});
		expect(body.messages[2]).toEqual({ role: "tool", tool_call_id: "call_1", content: note });
		expect(body.messages).toHaveLength(3);
	});

	it("shortens a Responses `callId|itemId` tool-call id from another model and pairs the result", () => {
		const model = completionsModel();
		const responsesTurn: AssistantMessage = {
			...assistant(model, [{ type: "toolCall", id: "call_abc|fc_0123456789", name: "read", arguments: {} }]),
			api: "openai-responses",
			model: "gpt-5",
		};
		const body = encode(model, {
			messages: [userMessage("q"), responsesTurn, toolResult("call_abc|fc_0123456789", [{ type: "text", text: "r" }])],
		});
		expect(body.messages[1]).toMatchObject({ tool_calls: [{ id: "call_abc" }] });
		expect(body.messages[2]).toMatchObject({ tool_call_id: "call_abc" });
	});
});

describe("encodeOpenAICompletionsRequest: caching and routing", () => {
	const context: Context = { systemPrompt: "sys", messages: [userMessage("Hi")] };

	it("sends prompt_cache_key to OpenAI, with 24h retention only for long", () => {
		expect(encode(completionsModel(), context, { sessionId: "s1" }).prompt_cache_key).toBe("s1");
		expect(
			encode(completionsModel(), context, { sessionId: "s1", cacheRetention: "long" }).prompt_cache_retention,
		).toBe("24h");
		expect(encode(completionsModel(), context, { sessionId: "s1", cacheRetention: "none" }).prompt_cache_key).toBe(
			undefined,
		);
		const groq = completionsModel({ provider: "groq", baseUrl: "https://api.groq.com/openai/v1" });
		expect(encode(groq, context, { sessionId: "s1" }).prompt_cache_key).toBeUndefined();
	});

	it("OpenRouter + Claude: cache_control on the system prompt and the last user text", () => {
		const model = completionsModel({
			provider: "openrouter",
			baseUrl: "https://openrouter.ai/api/v1",
			id: "anthropic/claude-sonnet-4",
		});
		const body = encode(model, context);
		expect(body.messages).toEqual([
			{ role: "system", content: [{ type: "text", text: "sys", cache_control: { type: "ephemeral" } }] },
			{ role: "user", content: [{ type: "text", text: "Hi", cache_control: { type: "ephemeral" } }] },
		]);
		expect(encode(model, context, { cacheRetention: "none" }).messages[1]).toEqual({ role: "user", content: "Hi" });
		const long = completionsModel({ ...model, compat: { supportsLongCacheRetention: true } });
		expect(encode(long, context, { cacheRetention: "long" }).messages[1]).toMatchObject({
			content: [{ cache_control: { type: "ephemeral", ttl: "1h" } }],
		});
	});

	it("sends OpenRouter and Vercel routing only to their own hosts", () => {
		const routing = { order: ["anthropic"], allow_fallbacks: false };
		const openrouter = completionsModel({
			provider: "openrouter",
			baseUrl: "https://openrouter.ai/api/v1",
			compat: { openRouterRouting: routing },
		});
		expect(encode(openrouter, context).provider).toEqual(routing);
		expect(encode({ ...openrouter, baseUrl: "https://proxy.example/v1" }, context).provider).toBeUndefined();
		const vercel = completionsModel({
			provider: "vercel-ai-gateway",
			baseUrl: "https://ai-gateway.vercel.sh/v1",
			compat: { vercelGatewayRouting: { only: ["bedrock"], order: ["bedrock"] } },
		});
		expect(encode(vercel, context).providerOptions).toEqual({ gateway: { only: ["bedrock"], order: ["bedrock"] } });
	});
});

describe("buildOpenAICompletionsHeaders", () => {
	it("merges model headers, vendor headers, then options.headers", () => {
		const model = completionsModel({
			provider: "fireworks",
			baseUrl: "https://api.fireworks.ai/inference/v1",
			headers: { "x-a": "model", "x-b": "model" },
		});
		const compat = resolveOpenAICompletionsCompat(model);
		const headers = buildOpenAICompletionsHeaders(
			model,
			{ messages: [userMessage("hi")] },
			{ sessionId: "sess-1", headers: { "x-b": "options" } },
			compat,
		);
		expect(headers).toEqual({ "x-a": "model", "x-b": "options", "x-session-affinity": "sess-1" });
	});

	it("sends GitHub Copilot's initiator, intent and vision headers", () => {
		const model = completionsModel({ provider: "github-copilot" });
		const compat = resolveOpenAICompletionsCompat(model);
		const withImage: Context = {
			messages: [{ role: "user", content: [{ type: "image", data: "AA", mimeType: "image/png" }], timestamp: 1 }],
		};
		expect(buildOpenAICompletionsHeaders(model, withImage, {}, compat)).toEqual({
			"x-initiator": "user",
			"openai-intent": "conversation-edits",
			"copilot-vision-request": "true",
		});
		const afterTool: Context = {
			messages: [userMessage("q"), toolResult("call_1", [{ type: "text", text: "r" }])],
		};
		expect(buildOpenAICompletionsHeaders(model, afterTool, {}, compat)["x-initiator"]).toBe("agent");
	});
});
