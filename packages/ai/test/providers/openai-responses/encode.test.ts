import { Type } from "@sinclair/typebox";
import { afterEach, describe, expect, it, vi } from "vitest";
import { IMAGE_OMITTED_NOTE } from "../../../src/message/encode-content.js";
import {
	buildOpenAIResponsesHeaders,
	encodeOpenAIResponsesRequest,
} from "../../../src/providers/openai-responses/encode.js";
import { mapReasoningEffort } from "../../../src/providers/openai-responses/encode-reasoning.js";
import type { AssistantMessage, Context, Message, ThinkingLevel, UserMessage } from "../../../src/types.js";
import { assistantMessage } from "../../helpers/messages.js";
import { reasoningModel, responsesModel } from "./fixtures.js";

const image = { type: "image" as const, data: "QUJD", mimeType: "image/png" };

function assistant(content: AssistantMessage["content"], overrides: Partial<AssistantMessage> = {}): AssistantMessage {
	return assistantMessage({ api: "openai-responses", provider: "openai", model: "gpt-test" }, content, {
		timestamp: 1,
		...overrides,
	});
}

const user = (content: UserMessage["content"]): Message => ({
	role: "user",
	content,
	timestamp: 1,
});

afterEach(() => {
	vi.unstubAllEnvs();
});

describe("encodeOpenAIResponsesRequest: request fields", () => {
	it("always streams with store:false and sends max_output_tokens, temperature and service_tier when set", () => {
		const body = encodeOpenAIResponsesRequest(
			responsesModel(),
			{ messages: [user("hi")] },
			{
				maxTokens: 500,
				temperature: 0.3,
				serviceTier: "flex",
			},
		);
		expect(body).toMatchObject({
			model: "gpt-test",
			stream: true,
			store: false,
			max_output_tokens: 500,
			temperature: 0.3,
			service_tier: "flex",
		});
		const bare = encodeOpenAIResponsesRequest(responsesModel(), { messages: [user("hi")] });
		expect(bare).not.toHaveProperty("max_output_tokens");
		expect(bare).not.toHaveProperty("temperature");
		expect(bare).not.toHaveProperty("service_tier");
	});

	it("puts the system prompt first, as developer for reasoning models and system otherwise", () => {
		const context: Context = { systemPrompt: "Be brief.", messages: [user("hi")] };
		expect(encodeOpenAIResponsesRequest(responsesModel(), context).input).toEqual([
			{ role: "system", content: "Be brief." },
			{ role: "user", content: [{ type: "input_text", text: "hi" }] },
		]);
		expect((encodeOpenAIResponsesRequest(reasoningModel(), context).input as unknown[])[0]).toEqual({
			role: "developer",
			content: "Be brief.",
		});
	});

	it("sends prompt_cache_key = sessionId unless retention is none", () => {
		const context = { messages: [user("hi")] };
		expect(encodeOpenAIResponsesRequest(responsesModel(), context, { sessionId: "s-1" }).prompt_cache_key).toBe("s-1");
		expect(
			encodeOpenAIResponsesRequest(responsesModel(), context, { sessionId: "s-1", cacheRetention: "none" }),
		).not.toHaveProperty("prompt_cache_key");
	});

	it("sends 24h retention only for long retention on api.openai.com or with compat.supportsLongCacheRetention", () => {
		const context = { messages: [user("hi")] };
		expect(
			encodeOpenAIResponsesRequest(responsesModel(), context, { cacheRetention: "long" }).prompt_cache_retention,
		).toBe("24h");
		expect(encodeOpenAIResponsesRequest(responsesModel(), context, { cacheRetention: "short" })).not.toHaveProperty(
			"prompt_cache_retention",
		);
		const proxy = responsesModel({ baseUrl: "https://proxy.example.com/v1" });
		expect(encodeOpenAIResponsesRequest(proxy, context, { cacheRetention: "long" })).not.toHaveProperty(
			"prompt_cache_retention",
		);
		const optedIn = responsesModel({
			baseUrl: "https://proxy.example.com/v1",
			compat: { supportsLongCacheRetention: true },
		});
		expect(encodeOpenAIResponsesRequest(optedIn, context, { cacheRetention: "long" }).prompt_cache_retention).toBe(
			"24h",
		);
	});

	it("takes long retention from KEEL_CACHE_RETENTION when the option is unset", () => {
		vi.stubEnv("KEEL_CACHE_RETENTION", "long");
		expect(encodeOpenAIResponsesRequest(responsesModel(), { messages: [user("hi")] }).prompt_cache_retention).toBe(
			"24h",
		);
	});

	it("sends tools as function tools with strict:false", () => {
		const tools = [{ name: "read", description: "Read a file", parameters: Type.Object({ path: Type.String() }) }];
		const body = encodeOpenAIResponsesRequest(responsesModel(), { messages: [user("hi")], tools });
		// As sent on the wire (TypeBox's symbol keys are not serialised).
		expect(JSON.parse(JSON.stringify(body.tools))).toEqual([
			{
				type: "function",
				name: "read",
				description: "Read a file",
				parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
				strict: false,
			},
		]);
	});
});

describe("encodeOpenAIResponsesRequest: reasoning", () => {
	const context = { messages: [user("hi")] };

	it.each<[ThinkingLevel, string]>([
		["minimal", "minimal"],
		["low", "low"],
		["medium", "medium"],
		["high", "high"],
		["xhigh", "high"],
	])("maps %s to effort %s (xhigh only where declared) with summary auto and encrypted content", (level, effort) => {
		const body = encodeOpenAIResponsesRequest(reasoningModel(), context, { reasoningEffort: level });
		expect(body.reasoning).toEqual({ effort, summary: "auto" });
		expect(body.include).toEqual(["reasoning.encrypted_content"]);
	});

	it("passes xhigh and mapped values through the model's thinkingLevelMap", () => {
		const model = reasoningModel({ thinkingLevelMap: { xhigh: "xhigh", minimal: null } });
		expect(encodeOpenAIResponsesRequest(model, context, { reasoningEffort: "xhigh" }).reasoning?.effort).toBe("xhigh");
		// minimal is unsupported: the nearest supported level upward is used.
		expect(mapReasoningEffort(model, "minimal")).toBe("low");
	});

	it("follows catalogue maps: GPT-5.1 has no minimal (becomes low), off is none", () => {
		const gpt51 = reasoningModel({ thinkingLevelMap: { off: "none", minimal: null } });
		expect(encodeOpenAIResponsesRequest(gpt51, context, { reasoningEffort: "minimal" }).reasoning?.effort).toBe("low");
		expect(encodeOpenAIResponsesRequest(gpt51, context).reasoning).toEqual({ effort: "none" });
		expect(encodeOpenAIResponsesRequest(gpt51, context, { reasoningEffort: "none" }).reasoning?.effort).toBe("none");
	});

	it("defaults the effort to medium when only a summary style is given", () => {
		const body = encodeOpenAIResponsesRequest(reasoningModel(), context, { reasoningSummary: "detailed" });
		expect(body.reasoning).toEqual({ effort: "medium", summary: "detailed" });
	});

	it("sends the model's declared off effort when reasoning is off, and nothing (no prompt hack) otherwise", () => {
		const withOff = reasoningModel({ thinkingLevelMap: { off: "none" } });
		const body = encodeOpenAIResponsesRequest(withOff, context);
		expect(body.reasoning).toEqual({ effort: "none" });
		// Encrypted reasoning is still asked for: low-effort turns can produce reasoning items too.
		expect(body.include).toEqual(["reasoning.encrypted_content"]);
		const withoutOff = encodeOpenAIResponsesRequest(reasoningModel({ name: "GPT-5" }), context);
		expect(withoutOff).not.toHaveProperty("reasoning");
		expect(JSON.stringify(withoutOff.input)).not.toContain("Juice");
	});

	it("never sends reasoning to a non-reasoning model", () => {
		expect(encodeOpenAIResponsesRequest(responsesModel(), context, { reasoningEffort: "high" })).not.toHaveProperty(
			"reasoning",
		);
		expect(encodeOpenAIResponsesRequest(responsesModel(), context)).not.toHaveProperty("include");
	});
});

describe("encodeOpenAIResponsesRequest: messages", () => {
	it("sends images as input_image data URLs, and a note in their place for text-only models", () => {
		const context = { messages: [user([{ type: "text", text: "look" }, image])] };
		expect(encodeOpenAIResponsesRequest(responsesModel(), context).input).toEqual([
			{
				role: "user",
				content: [
					{ type: "input_text", text: "look" },
					{ type: "input_image", detail: "auto", image_url: "data:image/png;base64,QUJD" },
				],
			},
		]);
		const textOnly = responsesModel({ input: ["text"] });
		expect(encodeOpenAIResponsesRequest(textOnly, context).input).toEqual([
			{
				role: "user",
				content: [
					{ type: "input_text", text: "look" },
					{ type: "input_text", text: IMAGE_OMITTED_NOTE },
				],
			},
		]);
	});

	it("replays signed reasoning as the stored item, text as a message with id and phase, and tool calls split at the pipe", () => {
		const reasoningItem = {
			type: "reasoning",
			id: "rs_1",
			summary: [{ type: "summary_text", text: "t" }],
			encrypted_content: "ENC",
		};
		const messages: Message[] = [
			user("go"),
			assistant(
				[
					{ type: "thinking", thinking: "t", thinkingSignature: JSON.stringify(reasoningItem) },
					{ type: "text", text: "Let me look.", textSignature: '{"v":1,"id":"msg_9","phase":"commentary"}' },
					{ type: "toolCall", id: "call_1|fc_1", name: "read", arguments: { path: "a" } },
				],
				{ stopReason: "toolUse" },
			),
			{
				role: "toolResult",
				toolCallId: "call_1|fc_1",
				toolName: "read",
				content: [{ type: "text", text: "file" }],
				isError: false,
				timestamp: 1,
			},
		];
		const input = encodeOpenAIResponsesRequest(reasoningModel({ id: "gpt-test" }), { messages }).input;
		expect(input).toEqual([
			{ role: "user", content: [{ type: "input_text", text: "go" }] },
			reasoningItem,
			{
				type: "message",
				role: "assistant",
				id: "msg_9",
				status: "completed",
				content: [{ type: "output_text", text: "Let me look.", annotations: [] }],
				phase: "commentary",
			},
			{ type: "function_call", call_id: "call_1", id: "fc_1", name: "read", arguments: '{"path":"a"}' },
			{ type: "function_call_output", call_id: "call_1", output: "file" },
		]);
	});

	it("leaves out a reasoning item without encrypted content, and the item ids of that turn", () => {
		const unencrypted = { type: "reasoning", id: "rs_2", summary: [] };
		const messages: Message[] = [
			assistant(
				[
					{ type: "thinking", thinking: "", thinkingSignature: JSON.stringify(unencrypted) },
					{ type: "text", text: "Checking.", textSignature: '{"v":1,"id":"msg_2","phase":"commentary"}' },
					{ type: "toolCall", id: "call_2|fc_2", name: "read", arguments: {} },
				],
				{ stopReason: "toolUse" },
			),
			{
				role: "toolResult",
				toolCallId: "call_2|fc_2",
				toolName: "read",
				content: [{ type: "text", text: "ok" }],
				isError: false,
				timestamp: 1,
			},
		];
		expect(encodeOpenAIResponsesRequest(reasoningModel({ id: "gpt-test" }), { messages }).input).toEqual([
			{ type: "message", role: "assistant", content: "Checking.", phase: "commentary" },
			{ type: "function_call", call_id: "call_2", name: "read", arguments: "{}" },
			{ type: "function_call_output", call_id: "call_2", output: "ok" },
		]);
	});

	it("gives text without a signature a positional id, and hashes ids longer than 64 characters", () => {
		const messages: Message[] = [
			assistant([
				{ type: "text", text: "a" },
				{ type: "text", text: "b", textSignature: "x".repeat(80) },
			]),
		];
		const input = encodeOpenAIResponsesRequest(responsesModel(), { messages }).input as { id: string }[];
		expect(input[0].id).toBe("msg_0_0");
		expect(input[1].id).toMatch(/^msg_[0-9A-Za-z]{16}$/);
		expect(input[1].id.length).toBeLessThanOrEqual(64);
		// Stable: the same history gives the same id.
		expect((encodeOpenAIResponsesRequest(responsesModel(), { messages }).input as { id: string }[])[1].id).toBe(
			input[1].id,
		);
	});

	it("accepts a legacy bare-id text signature", () => {
		const input = encodeOpenAIResponsesRequest(responsesModel(), {
			messages: [assistant([{ type: "text", text: "a", textSignature: "msg_legacy" }])],
		}).input as { id: string }[];
		expect(input[0].id).toBe("msg_legacy");
	});

	it("leaves out fc_ item ids from another model of the same provider, keeping call_id", () => {
		const messages: Message[] = [
			assistant([{ type: "toolCall", id: "call_1|fc_1", name: "read", arguments: {} }], {
				model: "gpt-older",
				stopReason: "toolUse",
			}),
			{
				role: "toolResult",
				toolCallId: "call_1|fc_1",
				toolName: "read",
				content: [{ type: "text", text: "ok" }],
				isError: false,
				timestamp: 1,
			},
		];
		const input = encodeOpenAIResponsesRequest(responsesModel(), { messages }).input;
		expect(input).toEqual([
			{ type: "function_call", call_id: "call_1", name: "read", arguments: "{}" },
			{ type: "function_call_output", call_id: "call_1", output: "ok" },
		]);
	});

	it("continues an Anthropic conversation: thinking becomes text, ids are normalised, orphaned calls answered", () => {
		const messages: Message[] = [
			user("go"),
			assistant(
				[
					{ type: "thinking", thinking: "Claude thought", thinkingSignature: "sig-anthropic" },
					{ type: "toolCall", id: "toolu_01.abc", name: "read", arguments: {} },
					{ type: "toolCall", id: "toolu_02", name: "read", arguments: {} },
				],
				{ api: "anthropic-messages", provider: "anthropic", model: "claude", stopReason: "toolUse" },
			),
			{
				role: "toolResult",
				toolCallId: "toolu_01.abc",
				toolName: "read",
				content: [{ type: "text", text: "r1" }],
				isError: false,
				timestamp: 1,
			},
			user("next"),
		];
		const input = encodeOpenAIResponsesRequest(responsesModel(), { messages }).input as unknown as Record<
			string,
			unknown
		>[];
		expect(input[1]).toMatchObject({
			type: "message",
			role: "assistant",
			content: [{ type: "output_text", text: "Claude thought" }],
		});
		expect(input[2]).toEqual({ type: "function_call", call_id: "toolu_01_abc", name: "read", arguments: "{}" });
		expect(input.filter((item) => item.type === "function_call_output")).toEqual([
			{ type: "function_call_output", call_id: "toolu_01_abc", output: "r1" },
			{ type: "function_call_output", call_id: "toolu_02", output: "No result provided" },
		]);
	});

	it("continues a Chat Completions or Google conversation: bare call ids, sanitised, no item id", () => {
		const messages: Message[] = [
			user("go"),
			assistant(
				[
					{ type: "toolCall", id: "call_abc123", name: "a", arguments: {} },
					{ type: "toolCall", id: "get weather/1", name: "b", arguments: { q: 1 } },
				],
				{ api: "openai-completions", provider: "groq", model: "llama", stopReason: "toolUse" },
			),
			{
				role: "toolResult",
				toolCallId: "call_abc123",
				toolName: "a",
				content: [{ type: "text", text: "A" }],
				isError: false,
				timestamp: 1,
			},
			{
				role: "toolResult",
				toolCallId: "get weather/1",
				toolName: "b",
				content: [{ type: "text", text: "B" }],
				isError: true,
				timestamp: 1,
			},
		];
		const input = encodeOpenAIResponsesRequest(responsesModel(), { messages }).input;
		expect((input as unknown[]).slice(1)).toEqual([
			{ type: "function_call", call_id: "call_abc123", name: "a", arguments: "{}" },
			{ type: "function_call", call_id: "get_weather_1", name: "b", arguments: '{"q":1}' },
			{ type: "function_call_output", call_id: "call_abc123", output: "A" },
			{ type: "function_call_output", call_id: "get_weather_1", output: "B" },
		]);
	});

	it("sends another OpenAI model's reasoning as text, not as its encrypted item", () => {
		const reasoningItem = { type: "reasoning", id: "rs_1", summary: [], encrypted_content: "ENC" };
		const messages: Message[] = [
			user("q"),
			assistant(
				[
					{ type: "thinking", thinking: "old thoughts", thinkingSignature: JSON.stringify(reasoningItem) },
					{ type: "text", text: "answer", textSignature: '{"v":1,"id":"msg_old"}' },
				],
				{ model: "gpt-older" },
			),
			user("again"),
		];
		const input = JSON.stringify(encodeOpenAIResponsesRequest(responsesModel(), { messages }).input);
		expect(input).not.toContain("ENC");
		expect(input).toContain("old thoughts");
	});

	it("drops errored and aborted assistant turns", () => {
		const messages: Message[] = [
			user("a"),
			assistant([{ type: "text", text: "half" }], { stopReason: "aborted" }),
			user("b"),
		];
		expect(JSON.stringify(encodeOpenAIResponsesRequest(responsesModel(), { messages }).input)).not.toContain("half");
	});

	it("sends tool results with images as a list for image models, and text with a note otherwise", () => {
		const result: Message = {
			role: "toolResult",
			toolCallId: "call_1|fc_1",
			toolName: "shot",
			content: [image],
			isError: false,
			timestamp: 1,
		};
		const call = assistant([{ type: "toolCall", id: "call_1|fc_1", name: "shot", arguments: {} }], {
			stopReason: "toolUse",
		});
		const withImages = encodeOpenAIResponsesRequest(responsesModel(), { messages: [call, result] }).input as unknown[];
		expect(withImages[1]).toEqual({
			type: "function_call_output",
			call_id: "call_1",
			output: [
				{ type: "input_text", text: "(see attached image)" },
				{ type: "input_image", detail: "auto", image_url: "data:image/png;base64,QUJD" },
			],
		});
		const textOnly = responsesModel({ input: ["text"] });
		const withoutImages = encodeOpenAIResponsesRequest(textOnly, { messages: [call, result] }).input as unknown[];
		expect(withoutImages[1]).toEqual({ type: "function_call_output", call_id: "call_1", output: IMAGE_OMITTED_NOTE });
	});

	it("removes lone surrogates from outgoing text", () => {
		const input = encodeOpenAIResponsesRequest(responsesModel(), { messages: [user("bad \ud83d end")] }).input;
		expect(input).toEqual([{ role: "user", content: [{ type: "input_text", text: "bad  end" }] }]);
	});
});

describe("buildOpenAIResponsesHeaders", () => {
	it("merges model headers, the session header where the host wants it, then option headers last", () => {
		const model = responsesModel({
			headers: { "x-a": "model", "x-b": "model" },
			compat: { sendSessionIdHeader: true },
		});
		expect(buildOpenAIResponsesHeaders(model, { sessionId: "s", headers: { "x-b": "option" } })).toEqual({
			"x-a": "model",
			"x-b": "option",
			session_id: "s",
		});
		expect(buildOpenAIResponsesHeaders(responsesModel(), { sessionId: "s" })).toEqual({});
	});

	it("adds GitHub Copilot's initiator, intent and vision headers, still below option headers", () => {
		const copilot = responsesModel({ provider: "github-copilot" });
		const userTurn: Context = { messages: [user([{ type: "text", text: "see" }, image])] };
		expect(buildOpenAIResponsesHeaders(copilot, {}, userTurn)).toEqual({
			"x-initiator": "user",
			"openai-intent": "conversation-edits",
			"copilot-vision-request": "true",
		});
		const agentTurn: Context = {
			messages: [
				user("go"),
				assistant([{ type: "toolCall", id: "c|fc", name: "t", arguments: {} }], { stopReason: "toolUse" }),
				{
					role: "toolResult",
					toolCallId: "c|fc",
					toolName: "t",
					content: [{ type: "text", text: "r" }],
					isError: false,
					timestamp: 1,
				},
			],
		};
		expect(buildOpenAIResponsesHeaders(copilot, { headers: { "Openai-Intent": "mine" } }, agentTurn)).toEqual({
			"x-initiator": "agent",
			"openai-intent": "mine",
		});
	});
});
