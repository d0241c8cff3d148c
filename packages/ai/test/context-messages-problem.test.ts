// The message-shape check the Chat Completions and Mistral encoders run before encoding: every
// message of the four roles, with content an encoder can read, system messages checked as well.
import { describe, expect, it } from "vitest";
import type { Context } from "../src/types.js";
import { findContextMessagesProblem } from "../src/utils/context-messages-problem.js";
import { userMessage } from "./helpers/messages.js";

const contextOf = (messages: unknown[]): Context => ({ messages: messages as Context["messages"] });

describe("findContextMessagesProblem", () => {
	it("finds nothing wrong with user text, a system message and block content", () => {
		const messages = [
			userMessage("hello"),
			{ role: "system", content: "Be brief.", timestamp: 1 },
			{ role: "user", content: [{ type: "text", text: "more" }], timestamp: 2 },
		];
		expect(findContextMessagesProblem(contextOf(messages))).toBeUndefined();
	});

	it("refuses a context whose messages are not an array", () => {
		expect(findContextMessagesProblem({ messages: "hello" } as unknown as Context)).toBe(
			"context.messages must be an array of messages",
		);
	});

	it("names a message of an unknown role and the roles expected", () => {
		expect(findContextMessagesProblem(contextOf([userMessage("hi"), { role: "developer", content: "x" }]))).toBe(
			'context.messages[1] has role "developer": expected "system", "user", "assistant" or "toolResult"',
		);
	});

	it("names a message without content, offering a string only for a user message", () => {
		expect(findContextMessagesProblem(contextOf([{ role: "assistant", content: "text" }]))).toBe(
			"context.messages[0] (assistant) has no content: expected an array of blocks",
		);
		expect(findContextMessagesProblem(contextOf([{ role: "user" }]))).toBe(
			"context.messages[0] (user) has no content: expected a string or an array of blocks",
		);
	});

	it("reports a malformed system message as the system-message check does", () => {
		expect(findContextMessagesProblem(contextOf([{ role: "system", content: 42, timestamp: 1 }]))).toBe(
			"context.messages[0] (system) has content type number: expected a string or an array of text blocks (system messages take text only)",
		);
	});
});
