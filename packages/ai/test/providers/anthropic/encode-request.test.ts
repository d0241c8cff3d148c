import { Type } from "@sinclair/typebox";
import { afterEach, describe, expect, it } from "vitest";
import { IMAGE_OMITTED_NOTE } from "../../../src/message/encode-content.js";
import { encodeAnthropicRequest } from "../../../src/providers/anthropic/encode.js";
import type { AssistantMessage, Context, Message, ToolResultMessage } from "../../../src/types.js";
import { assistantMessage, toolResultMessage } from "../../helpers/messages.js";
import { claudeModel, opus46 } from "./fixtures.js";

const model = claudeModel();

function assistant(content: AssistantMessage["content"], overrides: Partial<AssistantMessage> = {}): AssistantMessage {
	return assistantMessage({ api: model.api, provider: model.provider, model: model.id }, content, {
		stopReason: "toolUse",
		...overrides,
	});
}

function toolResult(toolCallId: string, content: ToolResultMessage["content"], isError = false): ToolResultMessage {
	return toolResultMessage(toolCallId, content, { isError });
}

const image = { type: "image" as const, data: "iVBORw0KGgo=", mimeType: "image/png" };

describe("encodeAnthropicRequest: basics", () => {
	afterEach(() => {
		delete process.env.KEEL_CACHE_RETENTION;
	});

	it("sends the system prompt as a cached system block, not as a message", () => {
		const body = encodeAnthropicRequest(model, { systemPrompt: "Be brief.", messages: [] });
		expect(body.system).toEqual([{ type: "text", text: "Be brief.", cache_control: { type: "ephemeral" } }]);
		expect(body.messages).toEqual([]);
		expect(body.stream).toBe(true);
	});

	it("defaults max_tokens to a third of the model's limit and keeps an explicit 0", () => {
		expect(encodeAnthropicRequest(model, { messages: [] }).max_tokens).toBe(21333);
		expect(encodeAnthropicRequest(model, { messages: [] }, { maxTokens: 0 }).max_tokens).toBe(0);
	});

	it("rejects a negative or fractional maxTokens with a clear error", () => {
		expect(() => encodeAnthropicRequest(model, { messages: [] }, { maxTokens: -1 })).toThrow(
			"maxTokens must be a non-negative integer, got -1",
		);
	});

	it("turns a string user message into a cached text block when it is the last user message", () => {
		const body = encodeAnthropicRequest(model, { messages: [{ role: "user", content: "Hi", timestamp: 1 }] });
		expect(body.messages).toEqual([
			{ role: "user", content: [{ type: "text", text: "Hi", cache_control: { type: "ephemeral" } }] },
		]);
	});

	it("places no cache_control at all with cacheRetention none", () => {
		const body = encodeAnthropicRequest(
			model,
			{ systemPrompt: "S", messages: [{ role: "user", content: "Hi", timestamp: 1 }] },
			{ cacheRetention: "none" },
		);
		expect(JSON.stringify(body)).not.toContain("cache_control");
	});

	it("adds the 1 h ttl for long retention on api.anthropic.com only", () => {
		const context: Context = { systemPrompt: "S", messages: [{ role: "user", content: "Hi", timestamp: 1 }] };
		const direct = encodeAnthropicRequest(model, context, { cacheRetention: "long" });
		expect(direct.system?.[0]).toMatchObject({ cache_control: { type: "ephemeral", ttl: "1h" } });
		const proxy = encodeAnthropicRequest(claudeModel({ baseUrl: "https://proxy.example.com" }), context, {
			cacheRetention: "long",
		});
		expect(proxy.system?.[0]).toMatchObject({ cache_control: { type: "ephemeral" } });
		expect(JSON.stringify(proxy)).not.toContain("ttl");
		const declared = encodeAnthropicRequest(
			claudeModel({ baseUrl: "https://proxy.example.com", compat: { supportsLongCacheRetention: true } }),
			context,
			{ cacheRetention: "long" },
		);
		expect(declared.system?.[0]).toMatchObject({ cache_control: { type: "ephemeral", ttl: "1h" } });
	});

	it("takes the default retention from KEEL_CACHE_RETENTION", () => {
		process.env.KEEL_CACHE_RETENTION = "long";
		const body = encodeAnthropicRequest(model, { systemPrompt: "S", messages: [] });
		expect(body.system?.[0]).toMatchObject({ cache_control: { type: "ephemeral", ttl: "1h" } });
	});

	it("forwards metadata.user_id only, and only when it is a string", () => {
		expect(
			encodeAnthropicRequest(model, { messages: [] }, { metadata: { user_id: "u-1", other: 1 } }).metadata,
		).toEqual({ user_id: "u-1" });
		expect(encodeAnthropicRequest(model, { messages: [] }, { metadata: { user_id: 42 } }).metadata).toBeUndefined();
	});

	it("sends temperature without thinking and drops it with thinking", () => {
		expect(encodeAnthropicRequest(model, { messages: [] }, { temperature: 0.2 }).temperature).toBe(0.2);
		const thinking = encodeAnthropicRequest(
			model,
			{ messages: [] },
			{ temperature: 0.2, thinkingEnabled: true, maxTokens: 4000, thinkingBudgetTokens: 2000 },
		);
		expect(thinking.temperature).toBeUndefined();
	});

	it("omits temperature for models that reject it (Claude Opus 4.7 and 4.8), by id or by the catalogue flag", () => {
		for (const id of ["claude-opus-4-7", "claude-opus-4-8"]) {
			expect(
				encodeAnthropicRequest(claudeModel({ id }), { messages: [] }, { temperature: 0.2 }).temperature,
			).toBeUndefined();
		}
		expect(encodeAnthropicRequest(opus46, { messages: [] }, { temperature: 0.2 }).temperature).toBe(0.2);
		const flagged = claudeModel({ id: "claude-next", compat: { supportsTemperature: false } });
		expect(encodeAnthropicRequest(flagged, { messages: [] }, { temperature: 0.2 }).temperature).toBeUndefined();
	});
});

describe("encodeAnthropicRequest: tools", () => {
	const tools = [
		{
			name: "read",
			description: "Read a file",
			parameters: Type.Object(
				{ path: Type.String(), limit: Type.Optional(Type.Number()) },
				{ additionalProperties: false },
			),
		},
	];

	it("sends tools in Anthropic's schema with input_schema", () => {
		const body = encodeAnthropicRequest(model, { messages: [], tools });
		// Compared as sent: TypeBox's symbol keys are not part of the JSON.
		expect(JSON.parse(JSON.stringify(body.tools))).toEqual([
			{
				name: "read",
				description: "Read a file",
				input_schema: {
					type: "object",
					properties: { path: { type: "string" }, limit: { type: "number" } },
					required: ["path"],
					additionalProperties: false,
				},
			},
		]);
	});

	it("marks tools for eager input streaming when the model declares support", () => {
		const body = encodeAnthropicRequest(claudeModel({ compat: { supportsEagerToolInputStreaming: true } }), {
			messages: [],
			tools,
		});
		expect(body.tools?.[0]).toMatchObject({ eager_input_streaming: true });
	});

	it("rejects a tool whose parameters are not an object schema", () => {
		expect(() =>
			encodeAnthropicRequest(model, {
				messages: [],
				tools: [{ name: "bad", description: "", parameters: Type.String() }],
			}),
		).toThrow('Tool "bad": Anthropic needs an object schema for tool parameters, got type "string"');
	});

	it("expands a string toolChoice to {type} and passes an object through", () => {
		expect(encodeAnthropicRequest(model, { messages: [] }, { toolChoice: "any" }).tool_choice).toEqual({ type: "any" });
		expect(
			encodeAnthropicRequest(model, { messages: [] }, { toolChoice: { type: "tool", name: "read" } }).tool_choice,
		).toEqual({ type: "tool", name: "read" });
	});
});

describe("encodeAnthropicRequest: messages", () => {
	it("merges consecutive tool results into one user message, paired to their calls", () => {
		const messages: Message[] = [
			{ role: "user", content: "read both", timestamp: 1 },
			assistant([
				{ type: "toolCall", id: "toolu_a", name: "read", arguments: { path: "a" } },
				{ type: "toolCall", id: "toolu_b", name: "read", arguments: {} },
			]),
			toolResult("toolu_a", [
				{ type: "text", text: "line 1" },
				{ type: "text", text: "line 2" },
			]),
			toolResult("toolu_b", [{ type: "text", text: "missing" }], true),
		];
		const body = encodeAnthropicRequest(model, { messages }, { cacheRetention: "none" });
		expect(body.messages).toEqual([
			{ role: "user", content: [{ type: "text", text: "read both" }] },
			{
				role: "assistant",
				content: [
					{ type: "tool_use", id: "toolu_a", name: "read", input: { path: "a" } },
					{ type: "tool_use", id: "toolu_b", name: "read", input: {} },
				],
			},
			{
				role: "user",
				content: [
					{ type: "tool_result", tool_use_id: "toolu_a", content: "line 1\nline 2" },
					{ type: "tool_result", tool_use_id: "toolu_b", content: "missing", is_error: true },
				],
			},
		]);
	});

	it("sends an empty tool result without content", () => {
		const messages: Message[] = [
			{ role: "user", content: "go", timestamp: 1 },
			assistant([{ type: "toolCall", id: "toolu_a", name: "touch", arguments: {} }]),
			toolResult("toolu_a", []),
		];
		const body = encodeAnthropicRequest(model, { messages }, { cacheRetention: "none" });
		expect(body.messages[2].content).toEqual([{ type: "tool_result", tool_use_id: "toolu_a" }]);
	});

	it("puts the cache breakpoint on the last block of the last user message (a tool result)", () => {
		const messages: Message[] = [
			{ role: "user", content: "go", timestamp: 1 },
			assistant([{ type: "toolCall", id: "toolu_a", name: "read", arguments: {} }]),
			toolResult("toolu_a", [{ type: "text", text: "done" }]),
		];
		const body = encodeAnthropicRequest(model, { messages });
		expect(body.messages[0]).toEqual({ role: "user", content: [{ type: "text", text: "go" }] });
		expect(body.messages[2].content).toEqual([
			{ type: "tool_result", tool_use_id: "toolu_a", content: "done", cache_control: { type: "ephemeral" } },
		]);
	});

	it("sends images in user messages and tool results as base64 blocks", () => {
		const messages: Message[] = [
			{ role: "user", content: [{ type: "text", text: "look" }, image], timestamp: 1 },
			assistant([{ type: "toolCall", id: "toolu_a", name: "shot", arguments: {} }]),
			toolResult("toolu_a", [image]),
		];
		const body = encodeAnthropicRequest(model, { messages }, { cacheRetention: "none" });
		const png = { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } };
		expect(body.messages[0].content).toEqual([{ type: "text", text: "look" }, png]);
		expect(body.messages[2].content).toEqual([
			{ type: "tool_result", tool_use_id: "toolu_a", content: [{ type: "text", text: "(see attached image)" }, png] },
		]);
	});

	it("replaces images with a note for a text-only model, in user messages and tool results", () => {
		const textOnly = claudeModel({ input: ["text"] });
		const messages: Message[] = [
			{ role: "user", content: [image], timestamp: 1 },
			assistant([{ type: "toolCall", id: "toolu_a", name: "shot", arguments: {} }], { model: textOnly.id }),
			toolResult("toolu_a", [{ type: "text", text: "screenshot:" }, image]),
		];
		const body = encodeAnthropicRequest(textOnly, { messages }, { cacheRetention: "none" });
		expect(body.messages[0].content).toEqual([{ type: "text", text: IMAGE_OMITTED_NOTE }]);
		expect(body.messages[2].content).toEqual([
			{
				type: "tool_result",
				tool_use_id: "toolu_a",
				content: [
					{ type: "text", text: "screenshot:" },
					{ type: "text", text: IMAGE_OMITTED_NOTE },
				],
			},
		]);
		expect(JSON.stringify(body)).not.toContain("iVBORw0KGgo=");
	});

	it("rejects an image type Anthropic cannot read", () => {
		const messages: Message[] = [
			{ role: "user", content: [{ type: "image", data: "AAAA", mimeType: "image/tiff" }], timestamp: 1 },
		];
		expect(() => encodeAnthropicRequest(model, { messages })).toThrow(/got "image\/tiff"; convert the image first/);
	});

	it("drops blank text and empty messages", () => {
		const messages: Message[] = [
			{ role: "user", content: "   ", timestamp: 1 },
			{ role: "user", content: [{ type: "text", text: "" }], timestamp: 1 },
			{ role: "user", content: "real", timestamp: 1 },
			assistant([{ type: "text", text: " " }], { stopReason: "stop" }),
		];
		const body = encodeAnthropicRequest(model, { messages }, { cacheRetention: "none" });
		expect(body.messages).toEqual([{ role: "user", content: [{ type: "text", text: "real" }] }]);
	});

	it("replays same-model thinking with its signature, redacted thinking as data, and signed empty thinking", () => {
		const messages: Message[] = [
			{ role: "user", content: "q", timestamp: 1 },
			assistant(
				[
					{ type: "thinking", thinking: "step", thinkingSignature: "sig1" },
					{ type: "thinking", thinking: "[Reasoning redacted]", thinkingSignature: "DATA", redacted: true },
					{ type: "thinking", thinking: "", thinkingSignature: "sig-omitted" },
					{ type: "text", text: "a" },
				],
				{ stopReason: "stop" },
			),
			{ role: "user", content: "next", timestamp: 4 },
		];
		const body = encodeAnthropicRequest(model, { messages }, { cacheRetention: "none" });
		expect(body.messages[1].content).toEqual([
			{ type: "thinking", thinking: "step", signature: "sig1" },
			{ type: "redacted_thinking", data: "DATA" },
			{ type: "thinking", thinking: "", signature: "sig-omitted" },
			{ type: "text", text: "a" },
		]);
	});

	it("replays server tool blocks and a tool call's caller unchanged to the same model, and drops them for another", () => {
		const serverToolUse = {
			type: "server_tool_use",
			id: "srvtoolu_02",
			name: "code_execution",
			input: { code: "x()" },
		};
		const caller = { type: "code_execution_20250825", tool_id: "srvtoolu_02" };
		const turn = (from: Pick<AssistantMessage, "api" | "provider" | "model">) =>
			assistantMessage(
				from,
				[
					{
						type: "text",
						text: "",
						textSignature: JSON.stringify({ type: "anthropic_content_block", block: serverToolUse }),
					},
					{
						type: "toolCall",
						id: "toolu_03",
						name: "get_weather",
						arguments: { city: "Paris" },
						thoughtSignature: JSON.stringify({ type: "anthropic_tool_caller", caller }),
					},
				],
				{ stopReason: "toolUse" },
			);
		const messages = (from: Pick<AssistantMessage, "api" | "provider" | "model">): Message[] => [
			{ role: "user", content: "weather?", timestamp: 1 },
			turn(from),
			toolResult("toolu_03", [{ type: "text", text: "sunny" }]),
		];
		const self = { api: model.api, provider: model.provider, model: model.id };
		const same = encodeAnthropicRequest(model, { messages: messages(self) }, { cacheRetention: "none" });
		expect(same.messages[1].content).toEqual([
			serverToolUse,
			{ type: "tool_use", id: "toolu_03", name: "get_weather", input: { city: "Paris" }, caller },
		]);
		const other = { api: model.api, provider: model.provider, model: "claude-opus-4-6" };
		const foreign = encodeAnthropicRequest(model, { messages: messages(other) }, { cacheRetention: "none" });
		expect(foreign.messages[1].content).toEqual([
			{ type: "tool_use", id: "toolu_03", name: "get_weather", input: { city: "Paris" } },
		]);
	});

	it("turns another model's thinking into text and normalises its tool-call ids (64 chars, [A-Za-z0-9_-])", () => {
		const longId = `call_abc|fc_${"x".repeat(80)}`;
		const messages: Message[] = [
			{ role: "user", content: "q", timestamp: 1 },
			assistant(
				[
					{ type: "thinking", thinking: "GPT reasoning", thinkingSignature: "{encrypted}" },
					{ type: "toolCall", id: longId, name: "read", arguments: { path: "a" } },
				],
				{ api: "openai-responses", provider: "openai", model: "gpt-5" },
			),
			toolResult(longId, [{ type: "text", text: "ok" }]),
		];
		const body = encodeAnthropicRequest(model, { messages }, { cacheRetention: "none" });
		const expectedId = `call_abc_fc_${"x".repeat(52)}`;
		expect(expectedId).toHaveLength(64);
		expect(body.messages[1].content).toEqual([
			{ type: "text", text: "GPT reasoning" },
			{ type: "tool_use", id: expectedId, name: "read", input: { path: "a" } },
		]);
		expect(body.messages[2].content).toEqual([{ type: "tool_result", tool_use_id: expectedId, content: "ok" }]);
	});

	it("drops errored turns and answers orphaned tool calls", () => {
		const messages: Message[] = [
			{ role: "user", content: "q", timestamp: 1 },
			assistant([{ type: "text", text: "half" }], { stopReason: "error", errorMessage: "boom" }),
			assistant([{ type: "toolCall", id: "toolu_orphan", name: "read", arguments: {} }]),
			{ role: "user", content: "never mind", timestamp: 5 },
		];
		const body = encodeAnthropicRequest(model, { messages }, { cacheRetention: "none" });
		expect(JSON.stringify(body)).not.toContain("half");
		expect(body.messages[2]).toEqual({
			role: "user",
			content: [{ type: "tool_result", tool_use_id: "toolu_orphan", content: "No result provided", is_error: true }],
		});
	});

	it("removes lone surrogates from outgoing text", () => {
		const body = encodeAnthropicRequest(
			model,
			{ systemPrompt: "sys\ud83d", messages: [{ role: "user", content: "cut \ud83d emoji 🙂", timestamp: 1 }] },
			{ cacheRetention: "none" },
		);
		expect(body.system).toEqual([{ type: "text", text: "sys" }]);
		expect(body.messages[0].content).toEqual([{ type: "text", text: "cut  emoji 🙂" }]);
	});
});

describe("encodeAnthropicRequest: thinking", () => {
	it("sends a token budget for budget-thinking models", () => {
		const body = encodeAnthropicRequest(
			model,
			{ messages: [] },
			{ thinkingEnabled: true, thinkingBudgetTokens: 8192, maxTokens: 40000, thinkingDisplay: "omitted" },
		);
		expect(body.thinking).toEqual({ type: "enabled", budget_tokens: 8192, display: "omitted" });
		expect(body.output_config).toBeUndefined();
	});

	it("uses 1024 when thinking is enabled without a budget", () => {
		const body = encodeAnthropicRequest(model, { messages: [] }, { thinkingEnabled: true, maxTokens: 4096 });
		expect(body.thinking).toEqual({ type: "enabled", budget_tokens: 1024 });
	});

	it("sends adaptive thinking with an effort for Claude 4.6 and later", () => {
		const body = encodeAnthropicRequest(opus46, { messages: [] }, { thinkingEnabled: true, effort: "max" });
		expect(body.thinking).toEqual({ type: "adaptive" });
		expect(body.output_config).toEqual({ effort: "max" });
	});

	it("turns thinking off explicitly (type disabled) when not asked for, so a model that thinks by default does not", () => {
		expect(encodeAnthropicRequest(model, { messages: [] }, { thinkingEnabled: false }).thinking).toEqual({
			type: "disabled",
		});
		expect(encodeAnthropicRequest(model, { messages: [] }).thinking).toEqual({ type: "disabled" });
	});

	it("sends no thinking field to a model that does not reason, or one whose catalogue map says it cannot stop", () => {
		const plain = claudeModel({ reasoning: false });
		expect(encodeAnthropicRequest(plain, { messages: [] }, { thinkingEnabled: true }).thinking).toBeUndefined();
		const alwaysThinks = claudeModel({ id: "claude-fable-5", thinkingLevelMap: { off: null, xhigh: "xhigh" } });
		expect(encodeAnthropicRequest(alwaysThinks, { messages: [] }).thinking).toBeUndefined();
	});

	it("asks for summarized thinking on models whose default display is omitted (Opus 4.7+, Sonnet 5, Fable 5)", () => {
		for (const id of ["claude-opus-4-7", "claude-opus-4-8", "claude-sonnet-5", "claude-fable-5"]) {
			const body = encodeAnthropicRequest(claudeModel({ id }), { messages: [] }, { thinkingEnabled: true });
			expect(body.thinking, id).toEqual({ type: "adaptive", display: "summarized" });
		}
	});

	it("leaves the display alone on Opus 4.6 and keeps an explicit thinkingDisplay", () => {
		expect(encodeAnthropicRequest(opus46, { messages: [] }, { thinkingEnabled: true }).thinking).toEqual({
			type: "adaptive",
		});
		const opus47 = claudeModel({ id: "claude-opus-4-7" });
		const omitted = encodeAnthropicRequest(
			opus47,
			{ messages: [] },
			{ thinkingEnabled: true, thinkingDisplay: "omitted" },
		);
		expect(omitted.thinking).toEqual({ type: "adaptive", display: "omitted" });
		const flagged = claudeModel({ id: "claude-next", compat: { omitsThinkingByDefault: true } });
		const body = encodeAnthropicRequest(
			flagged,
			{ messages: [] },
			{ thinkingEnabled: true, thinkingBudgetTokens: 2048 },
		);
		expect(body.thinking).toEqual({ type: "enabled", budget_tokens: 2048, display: "summarized" });
	});

	it("rejects a budget under 1024 or not below maxTokens, naming the fix", () => {
		expect(() =>
			encodeAnthropicRequest(model, { messages: [] }, { thinkingEnabled: true, thinkingBudgetTokens: 500 }),
		).toThrow("thinkingBudgetTokens must be an integer of at least 1024 (Anthropic's minimum), got 500");
		expect(() =>
			encodeAnthropicRequest(
				model,
				{ messages: [] },
				{ thinkingEnabled: true, thinkingBudgetTokens: 4096, maxTokens: 4096 },
			),
		).toThrow("thinkingBudgetTokens (4096) must be below maxTokens (4096)");
	});
});

describe("encodeAnthropicRequest: system messages inside the conversation", () => {
	const call = { type: "toolCall" as const, id: "toolu_1", name: "read", arguments: {} };
	const rule: Message = { role: "system", content: "Stay in scope.", timestamp: 3 };

	it("adds the instructions after the tool results of the user turn they follow, marked as system text", () => {
		const context: Context = {
			messages: [
				{ role: "user", content: "read it", timestamp: 1 },
				assistant([call]),
				toolResult("toolu_1", [{ type: "text", text: "file" }]),
				rule,
			],
		};
		const body = encodeAnthropicRequest(model, context, { cacheRetention: "none" });
		expect(body.messages[2]).toEqual({
			role: "user",
			content: [
				{ type: "tool_result", tool_use_id: "toolu_1", content: "file" },
				{ type: "text", text: "<system-instructions>\nStay in scope.\n</system-instructions>" },
			],
		});
	});

	it("sends a system entry after the tool results for a model that takes them, and merges adjacent ones", () => {
		const opus48 = claudeModel({ id: "claude-opus-4-8" });
		const context: Context = {
			messages: [
				{ role: "user", content: "read it", timestamp: 1 },
				assistant([call]),
				toolResult("toolu_1", [{ type: "text", text: "file" }]),
				rule,
				{ role: "system", content: "Be brief.", timestamp: 4 },
			],
		};
		const body = encodeAnthropicRequest(opus48, context, { cacheRetention: "none" });
		expect(body.messages.map((message) => message.role)).toEqual(["user", "assistant", "user", "system"]);
		expect(body.messages[3]).toEqual({ role: "system", content: "Stay in scope.\n\nBe brief." });
	});

	it("falls back to marked text where the placement rules forbid an entry (two system messages around a question)", () => {
		const opus48 = claudeModel({ id: "claude-opus-4-8" });
		const context: Context = {
			messages: [
				{ role: "user", content: "hi", timestamp: 1 },
				assistant([{ type: "text", text: "hello" }]),
				rule,
				{ role: "user", content: "next", timestamp: 4 },
				{ role: "user", content: "and more", timestamp: 5 },
			],
		};
		const body = encodeAnthropicRequest(opus48, context, { cacheRetention: "none" });
		expect(body.messages.map((message) => message.role)).toEqual(["user", "assistant", "user", "user"]);
		expect(body.messages[2].content).toEqual([
			{ type: "text", text: "<system-instructions>\nStay in scope.\n</system-instructions>" },
			{ type: "text", text: "next" },
		]);
	});
});
