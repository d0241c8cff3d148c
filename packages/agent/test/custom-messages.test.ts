import type { Message } from "@keel/ai";
import { fauxAssistantMessage, registerFauxProvider } from "@keel/ai/testing";
import { describe, expect, expectTypeOf, it } from "vitest";
import { Agent, type AgentMessage } from "../src/index.js";
import { textOf } from "./helpers.js";

// Applications add their own transcript entries by declaration merging.
declare module "../src/index.js" {
	interface CustomAgentMessages {
		note: { role: "note"; text: string; timestamp: number };
	}
}

describe("CustomAgentMessages", () => {
	it("widens AgentMessage by declaration merging", () => {
		expectTypeOf<{ role: "note"; text: string; timestamp: number }>().toMatchTypeOf<AgentMessage>();
		expectTypeOf<Message>().toMatchTypeOf<AgentMessage>();
		expectTypeOf<{ role: "other"; text: string }>().not.toMatchTypeOf<AgentMessage>();
	});

	it("keeps custom messages out of the request by default, and lets convertToLlm include them", async () => {
		const faux = registerFauxProvider({ api: "faux-custom-messages" });
		try {
			faux.setResponses([fauxAssistantMessage("first"), fauxAssistantMessage("second")]);
			const note: AgentMessage = { role: "note", text: "user prefers metric units", timestamp: 1 };
			const plain = new Agent({ initialState: { model: faux.getModel(), messages: [note] } });
			await plain.prompt("hi");
			expect(faux.state.requests[0].context.messages.map((message) => message.role)).toEqual(["user"]);
			// The note stays in the agent's transcript for the UI.
			expect(plain.state.messages.map((message) => message.role)).toEqual(["note", "user", "assistant"]);

			const converting = new Agent({
				initialState: { model: faux.getModel(), messages: [note] },
				convertToLlm: (messages) =>
					messages.map(
						(message): Message =>
							message.role === "note"
								? { role: "user", content: `(note) ${message.text}`, timestamp: message.timestamp }
								: (message as Message),
					),
			});
			await converting.prompt("hi");
			const sent = faux.state.requests[1].context.messages;
			expect(sent.map((message) => textOf(message))).toEqual(["(note) user prefers metric units", "hi"]);
		} finally {
			faux.unregister();
		}
	});
});
