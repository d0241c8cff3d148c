// Shared test helpers: a scripted stream function (full control over every event, including
// streams that ignore abort), small tools, and a compact rendering of event trees.
import {
	type AssistantMessage,
	AssistantMessageBuilder,
	type AssistantMessageEventStream,
	type Context,
	createAssistantMessageEventStream,
	type Model,
	type SimpleStreamOptions,
	type ToolResultMessage,
	Type,
	type UserMessage,
} from "@keel/ai";
import type { AgentEvent, AgentMessage, AgentTool, StreamFn } from "../src/index.js";

export const testModel: Model = {
	id: "scripted-model",
	name: "Scripted",
	api: "scripted",
	provider: "scripted",
	baseUrl: "",
	reasoning: true,
	input: ["text", "image"],
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
	contextWindow: 100_000,
	maxTokens: 1000,
};

export type ScriptBlock =
	| { text: string }
	| { thinking: string }
	| { toolCall: { name: string; arguments?: Record<string, unknown>; id?: string } };

export interface ScriptedResponse {
	blocks?: ScriptBlock[];
	stopReason?: "stop" | "length" | "error" | "aborted";
	errorMessage?: string;
	/** Emit start and the blocks, then never end, ignoring abort (a broken stream function). */
	hang?: boolean;
	/** Emit no start event: only the terminal event. */
	noStart?: boolean;
}

export interface StreamCall {
	context: Context;
	options: SimpleStreamOptions | undefined;
}

export type ScriptedStreamFn = StreamFn & { calls: StreamCall[] };

/** A stream function that plays the given responses in order; a function response sees the call. */
export function scriptedStreamFn(
	responses: (ScriptedResponse | ((call: StreamCall, index: number) => ScriptedResponse))[],
): ScriptedStreamFn {
	const calls: StreamCall[] = [];
	const streamFn = ((model: Model, context: Context, options?: SimpleStreamOptions) => {
		const call = { context: { ...context, messages: [...context.messages] }, options };
		calls.push(call);
		const entry = responses[calls.length - 1];
		const response = typeof entry === "function" ? entry(call, calls.length - 1) : entry;
		return playResponse(model, response ?? { blocks: [{ text: "no more scripted responses" }], stopReason: "error" });
	}) as ScriptedStreamFn;
	streamFn.calls = calls;
	return streamFn;
}

let toolCallCounter = 0;

function playResponse(model: Model, response: ScriptedResponse): AssistantMessageEventStream {
	const stream = createAssistantMessageEventStream();
	const builder = new AssistantMessageBuilder(model, (event) => {
		if (response.noStart && event.type !== "done" && event.type !== "error") return;
		stream.push(event);
	});
	for (const block of response.blocks ?? []) {
		if ("text" in block) {
			const index = builder.startText();
			builder.appendText(index, block.text);
			builder.endText(index);
		} else if ("thinking" in block) {
			const index = builder.startThinking();
			builder.appendThinking(index, block.thinking);
			builder.endThinking(index);
		} else {
			const id = block.toolCall.id ?? `call_${++toolCallCounter}`;
			const index = builder.startToolCall(id, block.toolCall.name);
			builder.appendToolCallArguments(index, JSON.stringify(block.toolCall.arguments ?? {}));
			builder.endToolCall(index);
		}
	}
	if (response.hang) {
		builder.start();
		return stream;
	}
	const stopReason = response.stopReason ?? "stop";
	if (stopReason === "error" || stopReason === "aborted") builder.fail(stopReason, response.errorMessage ?? "failed");
	else builder.finish(stopReason);
	return stream;
}

/**
 * A stream function whose response streams a complete tool call `c1` (echo) and half of the
 * arguments of `c2`, then waits: it ends as aborted when the signal fires if `honoursAbort`, and
 * never ends otherwise (the loop gives up on it).
 */
export function toolCallsCutShortStreamFn(honoursAbort: boolean): StreamFn {
	return (model, _context, options) => {
		const stream = createAssistantMessageEventStream();
		const builder = new AssistantMessageBuilder(model, (event) => stream.push(event));
		const first = builder.startToolCall("c1", "echo");
		builder.appendToolCallArguments(first, '{"value":"1"}');
		builder.endToolCall(first);
		const second = builder.startToolCall("c2", "echo");
		builder.appendToolCallArguments(second, '{"val');
		if (honoursAbort) options?.signal?.addEventListener("abort", () => builder.fail("aborted", "Request was aborted"));
		return stream;
	};
}

/** True for the update that streams part of the second tool call's arguments. */
export function isSecondToolCallDelta(event: AgentEvent): boolean {
	return (
		event.type === "message_update" &&
		event.assistantMessageEvent.type === "toolcall_delta" &&
		event.assistantMessageEvent.contentIndex === 1
	);
}

export const text = (value: string): ScriptBlock => ({ text: value });
export const call = (name: string, args: Record<string, unknown> = {}, id?: string): ScriptBlock => ({
	toolCall: { name, arguments: args, ...(id ? { id } : {}) },
});

export function user(value: string): UserMessage {
	return { role: "user", content: value, timestamp: 1 };
}

/** A tool that answers `<name>:<value>` at once. */
export function echoTool(name = "echo"): AgentTool {
	return {
		name,
		label: name,
		description: `echoes its value (${name})`,
		parameters: Type.Object({ value: Type.String() }),
		async execute(_id, params) {
			return { content: [{ type: "text", text: `${name}:${(params as { value: string }).value}` }], details: { name } };
		},
	};
}

/** A tool whose calls finish only when the test resolves them, in any order. */
export function controlledTool(name = "slow") {
	const waiting = new Map<string, (text: string) => void>();
	const started: string[] = [];
	let onStart: (() => void) | undefined;
	const tool: AgentTool = {
		name,
		label: name,
		description: "finishes when the test says so",
		parameters: Type.Object({}),
		execute(id) {
			started.push(id);
			const promise = new Promise<{ content: { type: "text"; text: string }[]; details: unknown }>((resolve) => {
				waiting.set(id, (value) => resolve({ content: [{ type: "text", text: value }], details: {} }));
			});
			onStart?.();
			return promise;
		},
	};
	return {
		tool,
		started,
		finish(id: string, value = `done ${id}`) {
			const resolve = waiting.get(id);
			if (!resolve) throw new Error(`call ${id} is not running`);
			resolve(value);
		},
		/** Resolves once `count` calls have started. */
		whenStarted(count: number): Promise<void> {
			if (started.length >= count) return Promise.resolve();
			return new Promise((resolve) => {
				onStart = () => {
					if (started.length >= count) resolve();
				};
			});
		},
	};
}

/** A compact, readable rendering of an event sequence, for asserting whole trees. */
export function describeEvents(events: AgentEvent[]): string[] {
	return events
		.filter((event) => event.type !== "message_update")
		.map((event) => {
			switch (event.type) {
				case "message_start":
				case "message_end":
					return `${event.type}:${describeMessage(event.message)}`;
				case "tool_execution_start":
				case "tool_execution_update":
					return `${event.type}:${event.toolCallId}`;
				case "tool_execution_end":
					return `${event.type}:${event.toolCallId}${event.isError ? ":error" : ""}`;
				case "turn_end":
					return `turn_end:${event.toolResults.length}`;
				default:
					return event.type;
			}
		});
}

export function describeMessage(message: AgentMessage): string {
	const role = (message as { role: string }).role;
	if (role === "toolResult") return `toolResult(${(message as { toolCallId: string }).toolCallId})`;
	if (role === "assistant") {
		const stopReason = (message as { stopReason: string }).stopReason;
		return stopReason === "stop" || stopReason === "toolUse" ? "assistant" : `assistant(${stopReason})`;
	}
	return role;
}

export function textOf(message: AgentMessage): string {
	const content = (message as { content?: unknown }).content;
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	return content
		.map((block: { type: string; text?: string }) => (block.type === "text" ? (block.text ?? "") : ""))
		.join("");
}

/** The problems of an event sequence: unbalanced turns, messages or tool executions, a missing or repeated agent_end. */
export function eventTreeProblems(events: AgentEvent[]): string[] {
	const problems: string[] = [];
	let turnOpen = false;
	let openMessage: unknown;
	const toolStarts = new Map<string, number>();
	const toolEnds = new Map<string, number>();
	events.forEach((event, index) => {
		if (index > 0 && events[index - 1].type === "agent_end") problems.push(`${event.type} after agent_end`);
		switch (event.type) {
			case "turn_start":
				if (turnOpen) problems.push(`turn_start at ${index} inside a turn`);
				turnOpen = true;
				break;
			case "turn_end":
				if (!turnOpen) problems.push(`turn_end at ${index} without turn_start`);
				if (openMessage) problems.push(`turn_end at ${index} with a message open`);
				turnOpen = false;
				break;
			case "message_start":
				if (openMessage) problems.push(`message_start at ${index} before the previous message_end`);
				openMessage = event.message;
				break;
			case "message_end":
				if (!openMessage) problems.push(`message_end at ${index} without message_start`);
				openMessage = undefined;
				break;
			case "tool_execution_start":
				toolStarts.set(event.toolCallId, (toolStarts.get(event.toolCallId) ?? 0) + 1);
				break;
			case "tool_execution_end":
				toolEnds.set(event.toolCallId, (toolEnds.get(event.toolCallId) ?? 0) + 1);
				break;
		}
	});
	for (const [id, count] of toolStarts) {
		if (count !== 1 || toolEnds.get(id) !== 1) problems.push(`${id}: ${count} starts, ${toolEnds.get(id) ?? 0} ends`);
	}
	if (openMessage) problems.push("a message left open");
	if (turnOpen) problems.push("a turn left open");
	if (events.filter((event) => event.type === "agent_end").length !== 1) problems.push("agent_end not exactly once");
	return problems;
}

/** Every tool call of an assistant message is followed by exactly one result each, in call order. */
export function transcriptProblems(messages: AgentMessage[]): string[] {
	const problems: string[] = [];
	messages.forEach((message, index) => {
		const assistant = message as AssistantMessage;
		if (assistant.role !== "assistant") return;
		const callIds = assistant.content.filter((block) => block.type === "toolCall").map((block) => block.id);
		const resultIds: string[] = [];
		for (const next of messages.slice(index + 1)) {
			if ((next as { role: string }).role !== "toolResult") break;
			resultIds.push((next as ToolResultMessage).toolCallId);
		}
		if (callIds.join() !== resultIds.join()) problems.push(`calls ${callIds.join()} got results ${resultIds.join()}`);
	});
	return problems;
}
