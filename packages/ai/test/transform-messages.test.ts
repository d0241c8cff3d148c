import { describe, expect, it } from "vitest";
import {
	normalizeAnthropicToolCallId,
	normalizeOpenAICompletionsToolCallId,
	normalizeOpenAIResponsesToolCallId,
	parseResponsesToolCallId,
} from "../src/message/tool-call-ids.js";
import { isSameModel, transformMessages } from "../src/message/transform-messages.js";
import type {
	Api,
	AssistantMessage,
	Message,
	Model,
	SystemMessage,
	ToolResultMessage,
	UserMessage,
} from "../src/types.js";
import { toolPairingProblems } from "./helpers/tool-pairing.js";

function model(api: Api, provider: string, id: string): Model<Api> {
	return {
		id,
		name: id,
		api,
		provider,
		baseUrl: "http://127.0.0.1:1",
		reasoning: true,
		input: ["text"],
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
		contextWindow: 100_000,
		maxTokens: 1000,
	};
}

const claude = model("anthropic-messages", "anthropic", "claude-x");
const gpt = model("openai-responses", "openai", "gpt-x");
const chat = model("openai-completions", "openai", "gpt-chat");

function assistant(
	from: Model<Api>,
	content: AssistantMessage["content"],
	stopReason: AssistantMessage["stopReason"] = "stop",
): AssistantMessage {
	return {
		role: "assistant",
		content,
		api: from.api,
		provider: from.provider,
		model: from.id,
		usage: {
			input: 0,
			output: 0,
			cacheRead: 0,
			cacheWrite: 0,
			totalTokens: 0,
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
		},
		stopReason,
		timestamp: 100,
	};
}

function user(text: string): UserMessage {
	return { role: "user", content: text, timestamp: 1 };
}

function textOf(message: Message): string {
	if (typeof message.content === "string") return message.content;
	return message.content.map((block) => (block.type === "text" ? block.text : "")).join("");
}

function result(toolCallId: string, text = "ok"): ToolResultMessage {
	return {
		role: "toolResult",
		toolCallId,
		toolName: "read",
		content: [{ type: "text", text }],
		isError: false,
		timestamp: 2,
	};
}

describe("transformMessages", () => {
	it("passes user messages through as the same objects", () => {
		const message = user("hi");
		expect(transformMessages([message], gpt)[0]).toBe(message);
	});

	it("keeps everything from the same model, including signed empty and redacted thinking", () => {
		const message = assistant(gpt, [
			{ type: "thinking", thinking: "", thinkingSignature: '{"encrypted":"x"}' },
			{ type: "thinking", thinking: "", thinkingSignature: "opaque", redacted: true },
			{ type: "text", text: "hello", textSignature: "sig" },
			{ type: "toolCall", id: "call_1|fc_1", name: "read", arguments: { path: "a" }, thoughtSignature: "t" },
		]);
		const [out] = transformMessages([message], gpt, () => "changed") as AssistantMessage[];
		expect(out).toBe(message);
	});

	it("removes blank unsigned thinking even from the same model", () => {
		const message = assistant(gpt, [
			{ type: "thinking", thinking: "   " },
			{ type: "text", text: "answer" },
		]);
		const [out] = transformMessages([message], gpt) as AssistantMessage[];
		expect(out.content).toEqual([{ type: "text", text: "answer" }]);
		expect(message.content).toHaveLength(2);
	});

	it("turns another model's thinking into text, drops redacted and blank thinking and all signatures", () => {
		const message = assistant(claude, [
			{ type: "thinking", thinking: "let me think", thinkingSignature: "sig" },
			{ type: "thinking", thinking: "", thinkingSignature: "secret", redacted: true },
			{ type: "thinking", thinking: "  \n" },
			{ type: "text", text: "visible", textSignature: "ts" },
			{ type: "toolCall", id: "toolu_1", name: "read", arguments: { path: "a" }, thoughtSignature: "g" },
		]);
		const [out] = transformMessages([message, result("toolu_1")], gpt) as AssistantMessage[];
		expect(out.content).toEqual([
			{ type: "text", text: "let me think" },
			{ type: "text", text: "visible" },
			{ type: "toolCall", id: "toolu_1", name: "read", arguments: { path: "a" } },
		]);
		expect(out.provider).toBe("anthropic");
	});

	it("normalises another model's tool-call ids and rewrites the matching results", () => {
		const messages: Message[] = [
			user("go"),
			assistant(gpt, [{ type: "toolCall", id: "call_abc|fc_item+1", name: "read", arguments: {} }]),
			result("call_abc|fc_item+1"),
		];
		const out = transformMessages(messages, claude, (id) => normalizeAnthropicToolCallId(id));
		expect((out[1] as AssistantMessage).content[0]).toMatchObject({ id: "call_abc_fc_item_1" });
		expect((out[2] as ToolResultMessage).toolCallId).toBe("call_abc_fc_item_1");
		expect((messages[2] as ToolResultMessage).toolCallId).toBe("call_abc|fc_item+1");
	});

	it("passes the id, the target model and the source message to the normaliser", () => {
		const source = assistant(claude, [{ type: "toolCall", id: "toolu_1", name: "read", arguments: {} }]);
		const seen: unknown[] = [];
		transformMessages([source], gpt, (id, target, from) => {
			seen.push(id, target.id, from);
			return id;
		});
		expect(seen).toEqual(["toolu_1", "gpt-x", source]);
	});

	it("keeps calls and results paired when two ids normalise to the same value", () => {
		const messages: Message[] = [
			assistant(gpt, [
				{ type: "toolCall", id: "a.b", name: "read", arguments: {} },
				{ type: "toolCall", id: "a,b", name: "read", arguments: {} },
			]),
			result("a.b", "first"),
			result("a,b", "second"),
		];
		const out = transformMessages(messages, claude, (id) => normalizeAnthropicToolCallId(id));
		const [first, second] = (out[0] as AssistantMessage).content as { id: string }[];
		expect(first.id).toBe("a_b");
		expect(second.id).not.toBe("a_b");
		expect(second.id).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
		expect((out[1] as ToolResultMessage).toolCallId).toBe(first.id);
		expect((out[2] as ToolResultMessage).toolCallId).toBe(second.id);
	});

	it("drops errored and aborted assistant turns and the results of their tool calls", () => {
		const messages: Message[] = [
			user("one"),
			assistant(claude, [{ type: "text", text: "partial" }], "aborted"),
			user("two"),
			assistant(claude, [{ type: "toolCall", id: "toolu_bad", name: "read", arguments: {} }], "error"),
			result("toolu_bad"),
			user("three"),
		];
		const out = transformMessages(messages, gpt);
		expect(out.map((message) => message.role)).toEqual(["user", "user", "user"]);
	});

	it("answers orphaned tool calls with an error result before the next user message", () => {
		const messages: Message[] = [
			assistant(claude, [
				{ type: "toolCall", id: "toolu_1", name: "read", arguments: {} },
				{ type: "toolCall", id: "toolu_2", name: "write", arguments: {} },
			]),
			result("toolu_1"),
			user("never mind"),
		];
		const out = transformMessages(messages, claude);
		expect(out.map((message) => message.role)).toEqual(["assistant", "toolResult", "toolResult", "user"]);
		expect(out[2]).toEqual({
			role: "toolResult",
			toolCallId: "toolu_2",
			toolName: "write",
			content: [{ type: "text", text: "No result provided" }],
			isError: true,
			timestamp: 100,
		});
	});

	it("answers orphaned calls before a following assistant message, using the normalised id", () => {
		const messages: Message[] = [
			assistant(gpt, [{ type: "toolCall", id: "call_1|fc_1", name: "read", arguments: {} }]),
			assistant(gpt, [{ type: "text", text: "moving on" }]),
		];
		const out = transformMessages(messages, chat, (id) => normalizeOpenAICompletionsToolCallId(id));
		expect(out.map((message) => message.role)).toEqual(["assistant", "toolResult", "assistant"]);
		expect((out[1] as ToolResultMessage).toolCallId).toBe("call_1");
	});

	it("leaves tool calls of the last assistant message unanswered", () => {
		const messages: Message[] = [
			user("go"),
			assistant(claude, [{ type: "toolCall", id: "toolu_1", name: "read", arguments: {} }]),
		];
		expect(transformMessages(messages, claude)).toHaveLength(2);
	});

	it("does not answer a call whose result already arrived", () => {
		const messages: Message[] = [
			assistant(claude, [{ type: "toolCall", id: "toolu_1", name: "read", arguments: {} }]),
			result("toolu_1"),
			user("next"),
		];
		expect(transformMessages(messages, claude)).toHaveLength(3);
	});

	it("keeps the result of a call whose id an earlier dropped turn also used", () => {
		// Some OpenAI-compatible servers number tool calls per response ("call_0"), so ids repeat.
		const messages: Message[] = [
			user("one"),
			assistant(claude, [{ type: "toolCall", id: "call_0", name: "read", arguments: {} }], "aborted"),
			result("call_0", "Tool call was not run: the response was aborted"),
			user("two"),
			assistant(claude, [{ type: "toolCall", id: "call_0", name: "read", arguments: {} }], "toolUse"),
			result("call_0", "file contents"),
		];
		const out = transformMessages(messages, claude);
		expect(out.map((message) => message.role)).toEqual(["user", "user", "assistant", "toolResult"]);
		expect((out[3] as ToolResultMessage).content).toEqual([{ type: "text", text: "file contents" }]);
		expect(toolPairingProblems({ messages })).toEqual([]);
	});

	it("drops a tool result whose call is not in the assistant message right before it", () => {
		const messages: Message[] = [
			// The head of the conversation was pruned: this result's call is gone.
			result("toolu_pruned"),
			user("go on"),
			assistant(claude, [{ type: "toolCall", id: "toolu_1", name: "read", arguments: {} }], "toolUse"),
			user("a message typed before the result was recorded"),
			result("toolu_1", "late"),
			user("and now?"),
		];
		const out = transformMessages(messages, claude);
		expect(out.map((message) => [message.role, message.role === "toolResult" ? textOf(message) : ""])).toEqual([
			["user", ""],
			["assistant", ""],
			["toolResult", "No result provided"],
			["user", ""],
			["user", ""],
		]);
		expect(toolPairingProblems({ messages })).toEqual([]);
	});

	it("keeps only the first result when a call has two", () => {
		const messages: Message[] = [
			user("go"),
			assistant(claude, [{ type: "toolCall", id: "toolu_1", name: "read", arguments: {} }], "toolUse"),
			result("toolu_1", "first"),
			result("toolu_1", "second"),
			user("next"),
		];
		const out = transformMessages(messages, claude);
		expect(out.filter((message) => message.role === "toolResult").map(textOf)).toEqual(["first"]);
		expect(toolPairingProblems({ messages })).toEqual([]);
	});

	it("answers the calls still open when the conversation ends with results of only some of them", () => {
		// A transcript resumed after the process stopped in the middle of a batch of tool calls.
		const messages: Message[] = [
			user("go"),
			assistant(
				claude,
				[
					{ type: "toolCall", id: "toolu_1", name: "read", arguments: {} },
					{ type: "toolCall", id: "toolu_2", name: "write", arguments: {} },
				],
				"toolUse",
			),
			result("toolu_1"),
		];
		const out = transformMessages(messages, claude);
		expect(out.map((message) => (message.role === "toolResult" ? message.toolCallId : message.role))).toEqual([
			"user",
			"assistant",
			"toolu_1",
			"toolu_2",
		]);
		expect(textOf(out[3])).toBe("No result provided");
		expect(toolPairingProblems({ messages })).toEqual([]);
	});

	it("isSameModel needs provider, api and model id to match", () => {
		const message = assistant(gpt, []);
		expect(isSameModel(message, gpt)).toBe(true);
		expect(isSameModel(message, { ...gpt, provider: "azure" })).toBe(false);
		expect(isSameModel(message, { ...gpt, api: "azure-openai-responses" })).toBe(false);
		expect(isSameModel(message, { ...gpt, id: "gpt-y" })).toBe(false);
	});
});

describe("transformMessages: system messages", () => {
	const system = (text: string): SystemMessage => ({ role: "system", content: text, timestamp: 3 });
	const call = { type: "toolCall" as const, id: "call_1", name: "read", arguments: {} };

	it("keeps system messages in order when the conversation moves to another model", () => {
		const rule = system("Be brief.");
		const output = transformMessages([user("hi"), assistant(claude, [{ type: "text", text: "hello" }]), rule], gpt);
		expect(output.map((message) => message.role)).toEqual(["user", "assistant", "system"]);
		expect(output[2]).toBe(rule);
	});

	it("moves a system message that stands between a tool call and its results to just after the results", () => {
		const messages = [
			user("read it"),
			assistant(claude, [call], "toolUse"),
			system("Now in French."),
			result("call_1"),
			user("next"),
		];
		const output = transformMessages(messages, claude);
		expect(output.map((message) => message.role)).toEqual(["user", "assistant", "toolResult", "system", "user"]);
		// Encoded by each API's own encoder, the pairs stay intact.
		expect(toolPairingProblems({ messages })).toEqual([]);
	});

	it("keeps it after the synthetic result of a call that never got one", () => {
		const output = transformMessages(
			[user("read it"), assistant(claude, [call], "toolUse"), system("Now in French."), user("never mind")],
			claude,
		);
		expect(output.map((message) => message.role)).toEqual(["user", "assistant", "toolResult", "system", "user"]);
		expect(textOf(output[2])).toBe("No result provided");
	});

	it("keeps a system message after a failed turn that is dropped", () => {
		const output = transformMessages(
			[user("hi"), assistant(claude, [{ type: "text", text: "par" }], "error"), system("Retry carefully.")],
			claude,
		);
		expect(output.map((message) => message.role)).toEqual(["user", "system"]);
	});
});

describe("tool-call id normalisers", () => {
	it("Anthropic: [A-Za-z0-9_-], at most 64 characters, never empty", () => {
		expect(normalizeAnthropicToolCallId("call_1|fc/2.x")).toBe("call_1_fc_2_x");
		expect(normalizeAnthropicToolCallId("x".repeat(80))).toHaveLength(64);
		expect(normalizeAnthropicToolCallId("")).toBe("_");
	});

	it("OpenAI completions: the part before the pipe, sanitised, at most 40 characters", () => {
		expect(normalizeOpenAICompletionsToolCallId("call_abc|fc_123")).toBe("call_abc");
		expect(normalizeOpenAICompletionsToolCallId("toolu 1")).toBe("toolu_1");
		expect(normalizeOpenAICompletionsToolCallId("y".repeat(50))).toBe("y".repeat(40));
	});

	it("OpenAI Responses: both parts sanitised, fc_ prefix, 64 characters, no trailing underscores", () => {
		expect(normalizeOpenAIResponsesToolCallId("call.1|item.2")).toBe("call_1|fc_item_2");
		expect(normalizeOpenAIResponsesToolCallId("call_1|fc_2")).toBe("call_1|fc_2");
		expect(normalizeOpenAIResponsesToolCallId(`${"c".repeat(63)}.x|fc_${"i".repeat(70)}`)).toBe(
			`${"c".repeat(63)}|fc_${"i".repeat(61)}`,
		);
		expect(normalizeOpenAIResponsesToolCallId("toolu_01!!")).toBe("toolu_01");
		expect(parseResponsesToolCallId("call_1|fc_2")).toEqual({ callId: "call_1", itemId: "fc_2" });
		expect(parseResponsesToolCallId("toolu_1")).toEqual({ callId: "toolu_1" });
	});
});
