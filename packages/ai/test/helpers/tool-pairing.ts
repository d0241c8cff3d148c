// Is a conversation one every wire API accepts, as far as tool calls go? The context is encoded with
// each provider's own request encoder (so transformMessages runs exactly as it does before a real
// call), and the request body is checked against the rule each API enforces:
// - Anthropic Messages: every `tool_use` block of an assistant turn is answered by a `tool_result`
//   block in the user turn right after it, and a `tool_result` answers a `tool_use` of the turn
//   right before it (https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use).
// - Chat Completions: an assistant message with `tool_calls` is followed by one `tool` message per
//   call id, and a `tool` message must answer a call of that assistant message
//   (https://platform.openai.com/docs/guides/function-calling).
// - Responses: every `function_call` item has one `function_call_output` with its `call_id` after it,
//   and every output has its call (https://platform.openai.com/docs/guides/function-calling).

import { encodeAnthropicRequest } from "../../src/providers/anthropic/encode.js";
import { encodeOpenAICompletionsRequest } from "../../src/providers/openai-completions/encode.js";
import { encodeOpenAIResponsesRequest } from "../../src/providers/openai-responses/encode.js";
import type { Context } from "../../src/types.js";
import { testModel } from "./models.js";

const anthropic = testModel({
	api: "anthropic-messages",
	id: "claude-sonnet-4-5",
	name: "Claude",
	provider: "anthropic",
	baseUrl: "http://127.0.0.1:1",
});
const completions = testModel({
	api: "openai-completions",
	id: "gpt-4.1-mini",
	name: "GPT chat",
	provider: "openai",
	baseUrl: "http://127.0.0.1:1",
});
const responses = testModel({
	api: "openai-responses",
	id: "gpt-5-mini",
	name: "GPT",
	provider: "openai",
	baseUrl: "http://127.0.0.1:1",
});

/**
 * Every tool-call pairing problem of the context's request for each API, as readable lines
 * (`anthropic-messages: tool_use toolu_1 has no tool_result`); empty when every API accepts it.
 */
export function toolPairingProblems(context: Context): string[] {
	return [
		...anthropicProblems(context).map((problem) => `anthropic-messages: ${problem}`),
		...completionsProblems(context).map((problem) => `openai-completions: ${problem}`),
		...responsesProblems(context).map((problem) => `openai-responses: ${problem}`),
	];
}

interface Block {
	type: string;
	id?: string;
	tool_use_id?: string;
}

function blocksOf(message: { content: unknown }): Block[] {
	return Array.isArray(message.content) ? (message.content as Block[]) : [];
}

function anthropicProblems(context: Context): string[] {
	const problems: string[] = [];
	const messages = encodeAnthropicRequest(anthropic, context).messages;
	messages.forEach((message, index) => {
		if (message.role === "assistant") {
			const calls = blocksOf(message).filter((block) => block.type === "tool_use");
			if (calls.length === 0) return;
			const next = messages[index + 1];
			const answers =
				next?.role === "user" ? blocksOf(next).filter((block) => block.type === "tool_result") : ([] as Block[]);
			for (const call of calls) {
				const count = answers.filter((answer) => answer.tool_use_id === call.id).length;
				if (count !== 1) problems.push(`tool_use ${call.id} has ${count} tool_result blocks in the next turn`);
			}
			return;
		}
		const previous = messages[index - 1];
		const calls = previous?.role === "assistant" ? blocksOf(previous).filter((block) => block.type === "tool_use") : [];
		for (const answer of blocksOf(message).filter((block) => block.type === "tool_result")) {
			if (!calls.some((call) => call.id === answer.tool_use_id)) {
				problems.push(`tool_result ${answer.tool_use_id} answers no tool_use of the turn before`);
			}
		}
	});
	return problems;
}

function completionsProblems(context: Context): string[] {
	const problems: string[] = [];
	const messages = encodeOpenAICompletionsRequest(completions, context).messages;
	let expected: string[] = [];
	for (const message of messages) {
		if (message.role === "tool") {
			const index = expected.indexOf(message.tool_call_id);
			if (index === -1) problems.push(`tool message ${message.tool_call_id} answers no call of the assistant before`);
			else expected.splice(index, 1);
			continue;
		}
		for (const id of expected) problems.push(`tool call ${id} has no tool message`);
		expected = message.role === "assistant" ? (message.tool_calls ?? []).map((call) => call.id) : [];
	}
	for (const id of expected) problems.push(`tool call ${id} has no tool message`);
	return problems;
}

function responsesProblems(context: Context): string[] {
	const problems: string[] = [];
	const input = encodeOpenAIResponsesRequest(responses, context).input as { type?: string; call_id?: string }[];
	const unanswered: string[] = [];
	for (const item of input) {
		if (item.type === "function_call") unanswered.push(item.call_id ?? "");
		if (item.type !== "function_call_output") continue;
		const index = unanswered.indexOf(item.call_id ?? "");
		if (index === -1) problems.push(`function_call_output ${item.call_id} has no function_call before it`);
		else unanswered.splice(index, 1);
	}
	for (const id of unanswered) problems.push(`function_call ${id} has no function_call_output`);
	return problems;
}
