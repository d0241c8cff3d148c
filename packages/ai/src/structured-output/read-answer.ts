// The JSON answer inside a finished assistant message: the arguments of the answer tool, or the
// text. Runs once per attempt, on the final message.
import type { AssistantMessage, ToolCall } from "../types.js";
import { parseJsonWithRepair } from "../utils/json-repair.js";

export type AnswerReading =
	| { ok: true; value: unknown; rawText: string }
	| { ok: false; problem: string; rawText: string };

// A model asked for JSON in prose (no native format) often fences it: ```json … ```.
const CODE_FENCE = /^```[a-zA-Z0-9_-]*\s*\n?([\s\S]*?)\n?\s*```$/;

/** The answer tool's call when the model made one, else the text of the message. */
export function readAnswer(message: AssistantMessage, toolName: string | undefined): AnswerReading {
	const call =
		toolName === undefined
			? undefined
			: (message.content.find((block) => block.type === "toolCall" && block.name === toolName) as ToolCall | undefined);
	if (call) return { ok: true, value: call.arguments, rawText: JSON.stringify(call.arguments) };

	const text = answerText(message);
	if (text === "") {
		const expected = toolName === undefined ? "a JSON text" : `a call to the tool "${toolName}" or a JSON text`;
		return { ok: false, problem: `The answer is empty: expected ${expected}`, rawText: "" };
	}
	const unfenced = CODE_FENCE.exec(text)?.[1] ?? text;
	try {
		return { ok: true, value: parseJsonWithRepair(unfenced), rawText: text };
	} catch (error) {
		return { ok: false, problem: `The answer is not valid JSON: ${(error as Error).message}`, rawText: text };
	}
}

/**
 * The text that holds the answer: from the first text block that opens like a JSON object to the
 * end (prose in blocks before it is left out, as the streaming partials leave it out), or all the
 * text when no block opens so (a fenced or broken answer, read as a whole).
 */
function answerText(message: AssistantMessage): string {
	const blocks = message.content.filter((block) => block.type === "text").map((block) => block.text);
	const first = blocks.findIndex((text) => text.trimStart().startsWith("{"));
	return blocks.slice(Math.max(first, 0)).join("").trim();
}
