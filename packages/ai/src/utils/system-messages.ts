// System messages inside the transcript (`role: "system"`), read the same way by every API: the
// base prompt is `Context.systemPrompt`; each system message adds instructions (`content`),
// replaces or removes named `sections`, and adds or removes tools. APIs with a system role in the
// conversation send the later ones where they stand (`keepSystemMessagesInPlace`); APIs with only a
// top-level system prompt get everything replayed into it (`foldSystemMessages`). Either way the
// top-level tool list is the tool set after every change.

import type { Context, Message, SystemMessage, TextContent, Tool } from "../types.js";

/** A context as an encoder sends it: the prompt text, the messages, and the current tools. */
export interface ResolvedSystemContext {
	systemPrompt: string | undefined;
	messages: Message[];
	tools: Tool[] | undefined;
}

/** The text of a system message's `content` (text blocks joined by blank lines). */
export function systemMessageContentText(message: SystemMessage): string {
	if (typeof message.content === "string") return message.content;
	return message.content
		.map((block) => block.text)
		.filter((text) => text !== "")
		.join("\n\n");
}

/** True when the transcript holds at least one system message (the common case has none: no copies then). */
export function hasSystemMessages(messages: readonly Message[]): boolean {
	return messages.some((message) => message.role === "system");
}

/**
 * What is wrong with the system messages of a context, or undefined. Checked before anything is
 * encoded, so malformed input ends the call with a message that says what to fix instead of a
 * crash in an encoder.
 */
export function findSystemMessageProblem(messages: readonly unknown[]): string | undefined {
	for (const [index, value] of messages.entries()) {
		const message = value as Partial<SystemMessage> | null;
		if (message?.role !== "system") continue;
		const where = `context.messages[${index}] (system)`;
		const content = message.content as unknown;
		const textBlocks =
			Array.isArray(content) &&
			content.every(
				(block) => (block as TextContent)?.type === "text" && typeof (block as TextContent).text === "string",
			);
		if (typeof content !== "string" && !textBlocks) {
			return `${where} has content ${describe(content)}: expected a string or an array of text blocks (system messages take text only)`;
		}
		const sections = message.sections as unknown;
		if (sections !== undefined) {
			if (sections === null || typeof sections !== "object" || Array.isArray(sections)) {
				return `${where} has sections ${describe(sections)}: expected an object of section name to text (or null to remove it)`;
			}
			for (const [name, text] of Object.entries(sections)) {
				if (text !== null && typeof text !== "string") {
					return `${where} has section "${name}" of ${describe(text)}: expected a string, or null to remove it`;
				}
			}
		}
		const added = message.toolsAdded as unknown;
		if (
			added !== undefined &&
			(!Array.isArray(added) || !added.every((tool) => typeof (tool as Tool)?.name === "string"))
		) {
			return `${where} has toolsAdded ${describe(added)}: expected an array of tools, each with a name`;
		}
		const removed = message.toolsRemoved as unknown;
		if (
			removed !== undefined &&
			(!Array.isArray(removed) || !removed.every((tool) => typeof (tool as Tool)?.name === "string"))
		) {
			return `${where} has toolsRemoved ${describe(removed)}: expected an array of { name } references`;
		}
	}
	return undefined;
}

function describe(value: unknown): string {
	if (value === null) return "null";
	if (Array.isArray(value)) return "an array of other values";
	return typeof value === "object" ? "an object" : `type ${typeof value}`;
}

/** Throws the problem `findSystemMessageProblem` finds. */
export function assertValidSystemMessages(messages: readonly unknown[]): void {
	const problem = findSystemMessageProblem(messages);
	if (problem) throw new Error(problem);
}

/** The tools available after replaying every system message's changes over `tools`. */
export function resolveCurrentTools(
	tools: readonly Tool[] | undefined,
	messages: readonly Message[],
): Tool[] | undefined {
	let current = tools ? [...tools] : undefined;
	for (const message of messages) {
		if (message.role !== "system") continue;
		const removed = new Set([
			...(message.toolsRemoved ?? []).map((tool) => tool.name),
			...(message.toolsAdded ?? []).map((tool) => tool.name),
		]);
		if (removed.size === 0) continue;
		current = [...(current ?? []).filter((tool) => !removed.has(tool.name)), ...(message.toolsAdded ?? [])];
	}
	return current;
}

/** Prompt text and named sections being replayed. A Map keeps the order of first declaration. */
class PromptState {
	private readonly instructions: string[] = [];
	private readonly sections = new Map<string, string>();

	constructor(base: string | undefined) {
		if (base !== undefined && base.trim() !== "") this.instructions.push(base);
	}

	apply(message: SystemMessage): void {
		const text = systemMessageContentText(message);
		if (text.trim() !== "") this.instructions.push(text);
		for (const [name, value] of Object.entries(message.sections ?? {})) {
			if (value === null) this.sections.delete(name);
			else this.sections.set(name, value);
		}
	}

	render(): string | undefined {
		const parts = [...this.instructions, ...[...this.sections.values()].filter((text) => text.trim() !== "")];
		return parts.length === 0 ? undefined : parts.join("\n\n");
	}
}

/**
 * The text a later system message is sent as, where the API takes it in place: its instructions,
 * then each section change named (the model saw the section by its text, not its name, so the
 * name alone would not say what changed), then the tool changes, which the top-level tool list
 * already holds but which the model should hear about at this point of the conversation.
 */
export function renderSystemMessageUpdate(message: SystemMessage): string {
	const parts: string[] = [];
	const text = systemMessageContentText(message);
	if (text.trim() !== "") parts.push(text);
	for (const [name, value] of Object.entries(message.sections ?? {})) {
		parts.push(
			value === null
				? `The prompt section "${name}" no longer applies.`
				: `The prompt section "${name}" now reads:\n${value}`,
		);
	}
	const added = (message.toolsAdded ?? []).map((tool) => tool.name);
	if (added.length > 0) parts.push(`Tools now available: ${added.join(", ")}.`);
	const removed = (message.toolsRemoved ?? []).map((tool) => tool.name);
	if (removed.length > 0) parts.push(`Tools no longer available: ${removed.join(", ")}.`);
	return parts.join("\n\n");
}

/**
 * For APIs with only a top-level system prompt (Gemini's `systemInstruction`, Bedrock's `system`
 * blocks): every system message replayed into the prompt, in order, and removed from the messages.
 */
export function foldSystemMessages(context: Context): ResolvedSystemContext {
	if (!hasSystemMessages(context.messages)) {
		return { systemPrompt: context.systemPrompt, messages: context.messages, tools: context.tools };
	}
	assertValidSystemMessages(context.messages);
	const prompt = new PromptState(context.systemPrompt);
	const messages: Message[] = [];
	for (const message of context.messages) {
		if (message.role === "system") prompt.apply(message);
		else messages.push(message);
	}
	return { systemPrompt: prompt.render(), messages, tools: resolveCurrentTools(context.tools, context.messages) };
}

/**
 * For APIs with a system role in the conversation: the system messages before the first other
 * message join the top-level prompt (they are part of it), the later ones stay where they stand
 * for the encoder to send in place (see `renderSystemMessageUpdate`), so the prefix before them
 * is unchanged and stays cached.
 */
export function keepSystemMessagesInPlace(context: Context): ResolvedSystemContext {
	if (!hasSystemMessages(context.messages)) {
		return { systemPrompt: context.systemPrompt, messages: context.messages, tools: context.tools };
	}
	assertValidSystemMessages(context.messages);
	const prompt = new PromptState(context.systemPrompt);
	let leading = 0;
	while (leading < context.messages.length && context.messages[leading].role === "system") {
		prompt.apply(context.messages[leading] as SystemMessage);
		leading++;
	}
	return {
		systemPrompt: prompt.render(),
		messages: context.messages.slice(leading),
		tools: resolveCurrentTools(context.tools, context.messages),
	};
}
