// Shared test helpers: a scripted stream function (full control over every event, including
// streams that ignore abort), small tools, and a compact rendering of event trees.
import {
	AssistantMessageBuilder,
	type AssistantMessageEventStream,
	type Context,
	createAssistantMessageEventStream,
	type Model,
	type SimpleStreamOptions,
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
