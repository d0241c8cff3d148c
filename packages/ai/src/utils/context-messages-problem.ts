// The shape an encoder that walks every message itself relies on: an array of messages of the four
// roles, each with content it can read, and system messages it can fold. Checked before encoding so
// a malformed context ends the call with a message that says what to fix, not a crash in the
// encoder or a confusing 400 from the vendor.
import type { Context } from "../types.js";
import { findSystemMessageProblem } from "./system-messages.js";

/** What is wrong with the messages of `context`, or undefined when an encoder can read them. */
export function findContextMessagesProblem(context: Context): string | undefined {
	if (!context || !Array.isArray(context.messages)) return "context.messages must be an array of messages";
	for (const [index, message] of context.messages.entries()) {
		const role = (message as { role?: unknown } | null)?.role;
		if (role !== "system" && role !== "user" && role !== "assistant" && role !== "toolResult") {
			return `context.messages[${index}] has role ${JSON.stringify(role)}: expected "system", "user", "assistant" or "toolResult"`;
		}
		if (role === "system") continue;
		const content = (message as { content?: unknown }).content;
		if (!Array.isArray(content) && !(role === "user" && typeof content === "string")) {
			return `context.messages[${index}] (${role}) has no content: expected ${role === "user" ? "a string or " : ""}an array of blocks`;
		}
	}
	return findSystemMessageProblem(context.messages);
}
