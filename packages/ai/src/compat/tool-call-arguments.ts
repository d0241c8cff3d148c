// A finished tool call's argument text as an object. Unlike the streaming parser, which keeps the
// longest valid prefix while text arrives, a finished call's text that is not a JSON object means
// the model sent malformed arguments: the object is then empty and `argumentsError` says why, with
// the text, so tool validation can tell the model.
import { parseJsonWithRepair } from "../utils/json-repair.js";

const MAX_QUOTED_TEXT = 500;

export function parseToolCallArguments(text: string | undefined): {
	arguments: Record<string, unknown>;
	argumentsError?: string;
} {
	if (text === undefined || text.trim() === "") return { arguments: {} };
	let value: unknown;
	try {
		value = parseJsonWithRepair(text);
	} catch (error) {
		return { arguments: {}, argumentsError: `${describe(error)}; the model sent: ${quoted(text)}` };
	}
	if (typeof value !== "object" || value === null || Array.isArray(value)) {
		return { arguments: {}, argumentsError: `Tool arguments must be a JSON object; the model sent: ${quoted(text)}` };
	}
	return { arguments: value as Record<string, unknown> };
}

function describe(error: unknown): string {
	return `Tool arguments are not valid JSON (${error instanceof Error ? error.message : String(error)})`;
}

function quoted(text: string): string {
	return text.length > MAX_QUOTED_TEXT ? `${text.slice(0, MAX_QUOTED_TEXT)}… (${text.length} characters)` : text;
}
