// Transcript helpers for programs that keep the system prompt and tools inside the message list
// (a leading system message, later system messages changing instructions, sections and tools).
// Keel's providers read such a transcript as it is (utils/system-messages.ts); these helpers
// build, read and collapse it for the caller.
import type { Context, Message, SystemMessage, Tool, ToolReference } from "../types.js";
import { contentText } from "./content-text.js";

/** A context whose prompt and tools live in a leading system message. */
export interface TranscriptContext {
	messages: Message[];
}

/** Any message list; only entries with role "system" are read, so agent transcripts pass as they are. */
export type TranscriptMessages = readonly { role: string }[];

function isSystemMessage(message: { role: string }): message is SystemMessage {
	return message.role === "system";
}

/** The leading system message for a prompt and tool set; undefined when both are empty. */
export function createInitialSystemMessage(
	systemPrompt: string | undefined,
	tools: Tool[] | undefined,
): SystemMessage | undefined {
	const hasPrompt = systemPrompt !== undefined && systemPrompt.length > 0;
	const hasTools = tools !== undefined && tools.length > 0;
	if (!hasPrompt && !hasTools) return undefined;
	return { role: "system", content: systemPrompt ?? "", ...(hasTools ? { toolsAdded: tools } : {}), timestamp: 0 };
}

/** `Context.systemPrompt` and `Context.tools` folded into a leading system message. */
export function normalizeContext(context: Context): TranscriptContext {
	const initial = createInitialSystemMessage(context.systemPrompt, context.tools);
	return { messages: initial ? [initial, ...context.messages] : context.messages };
}

/** The leading system message, when the transcript starts with one. */
export function getInitialSystemMessage(messages: TranscriptMessages): SystemMessage | undefined {
	const first = messages[0];
	return first && isSystemMessage(first) ? first : undefined;
}

/** The messages without their leading system message. */
export function withoutInitialSystemMessage(messages: Message[]): Message[] {
	return getInitialSystemMessage(messages) ? messages.slice(1) : messages;
}

/** The tools available after every system message's removals and additions, in order. */
export function getCurrentTools(messages: TranscriptMessages): Tool[] {
	const tools = new Map<string, Tool>();
	for (const message of messages) {
		if (!isSystemMessage(message)) continue;
		for (const tool of message.toolsRemoved ?? []) tools.delete(tool.name);
		for (const tool of message.toolsAdded ?? []) tools.set(tool.name, tool);
	}
	return [...tools.values()];
}

/**
 * Every system message replayed into one: contents joined by blank lines, sections patched by
 * name (null removes), the current tools as `toolsAdded`. Undefined when there is none.
 */
export function getCurrentSystemMessage(messages: TranscriptMessages): SystemMessage | undefined {
	const content: string[] = [];
	const sections = new Map<string, string>();
	let timestamp: number | undefined;
	for (const message of messages) {
		if (!isSystemMessage(message)) continue;
		timestamp ??= message.timestamp;
		const text = contentText(message.content);
		if (text.length > 0) content.push(text);
		for (const [name, value] of Object.entries(message.sections ?? {})) {
			if (value === null) sections.delete(name);
			else sections.set(name, value);
		}
	}
	const tools = getCurrentTools(messages);
	if (timestamp === undefined && tools.length === 0) return undefined;
	return {
		role: "system",
		content: content.join("\n\n"),
		...(sections.size > 0 ? { sections: Object.fromEntries(sections) } : {}),
		...(tools.length > 0 ? { toolsAdded: tools } : {}),
		timestamp: timestamp ?? 0,
	};
}

/** A system message as one prompt: its content, then its sections' texts. */
export function getSystemMessageText(message: SystemMessage): string {
	const parts = [contentText(message.content)];
	for (const text of Object.values(message.sections ?? {})) if (text !== null) parts.push(text);
	return parts.filter((part) => part.length > 0).join("\n\n");
}

/** The system prompt in force after every system message; "" when there is none. */
export function getCurrentSystemPrompt(messages: TranscriptMessages): string {
	const message = getCurrentSystemMessage(messages);
	return message ? getSystemMessageText(message) : "";
}

/** For APIs without system messages mid-conversation: the replayed system message leads, the others go. */
export function collapseSystemMessages(context: TranscriptContext): TranscriptContext {
	const head = getCurrentSystemMessage(context.messages);
	const messages = context.messages.filter((message) => message.role !== "system");
	return { messages: head ? [head, ...messages] : messages };
}

/** The transcript as it is when the model takes system messages mid-conversation, else collapsed. */
export function resolveTranscript(
	context: TranscriptContext,
	supportsMidConversationSystemMessages: boolean | undefined,
): TranscriptContext {
	return supportsMidConversationSystemMessages ? context : collapseSystemMessages(context);
}

/** A tool as the model sees it: name, description, parameters (a plain JSON copy), nothing executable. */
export function toToolDeclaration(tool: Tool): Tool {
	return {
		name: tool.name,
		description: tool.description,
		parameters: JSON.parse(JSON.stringify(tool.parameters)),
	} as Tool;
}

/** True when two tools declare the same interface to the model. */
export function declarationsEqual(left: Tool, right: Tool): boolean {
	return JSON.stringify(toToolDeclaration(left)) === JSON.stringify(toToolDeclaration(right));
}

export interface ToolStateChanges {
	toolsAdded: Tool[];
	toolsRemoved: ToolReference[];
}

/** What changed between two tool sets; a changed definition is a removal and an addition. */
export function getToolStateChanges(previous: readonly Tool[], current: readonly Tool[]): ToolStateChanges {
	const before = new Map(previous.map((tool) => [tool.name, tool]));
	const after = new Map(current.map((tool) => [tool.name, tool]));
	const changed = (tool: Tool, other: Tool | undefined) => other === undefined || !declarationsEqual(tool, other);
	return {
		toolsAdded: current.filter((tool) => changed(tool, before.get(tool.name))).map(toToolDeclaration),
		toolsRemoved: previous.filter((tool) => changed(tool, after.get(tool.name))).map((tool) => ({ name: tool.name })),
	};
}

/** Every tool definition the transcript declares, the last one per name, in first-declaration order. */
export function getDeclaredTools(messages: TranscriptMessages): Tool[] {
	const definitions = new Map<string, Tool>();
	for (const message of messages) {
		if (!isSystemMessage(message)) continue;
		for (const tool of message.toolsAdded ?? []) definitions.set(tool.name, tool);
	}
	return [...definitions.values()];
}

/** True when a tool name is declared twice with different definitions. */
export function hasToolRedefinitions(messages: TranscriptMessages): boolean {
	const declared = new Map<string, Tool>();
	for (const message of messages) {
		if (!isSystemMessage(message)) continue;
		for (const tool of message.toolsAdded ?? []) {
			const previous = declared.get(tool.name);
			if (previous !== undefined && !declarationsEqual(previous, tool)) return true;
			declared.set(tool.name, tool);
		}
	}
	return false;
}

/** True when the tool history removes a tool or declares a name again (not expressible by additions alone). */
export function hasNonAdditiveToolChanges(messages: TranscriptMessages): boolean {
	const declared = new Set<string>();
	for (const message of messages) {
		if (!isSystemMessage(message)) continue;
		if ((message.toolsRemoved?.length ?? 0) > 0) return true;
		for (const tool of message.toolsAdded ?? []) {
			if (declared.has(tool.name)) return true;
			declared.add(tool.name);
		}
	}
	return false;
}
