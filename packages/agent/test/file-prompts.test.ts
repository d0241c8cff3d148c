// The Agent sends file blocks given with prompt(text, blocks) and, for a model that cannot read
// them, ends the run with the call's error (the file named) instead of answering without it.
import type { AssistantMessage, UserContent, UserMessage } from "@keel/ai";
import { type FauxProviderRegistration, registerFauxProvider } from "@keel/ai/testing";
import { afterEach, beforeEach, expect, it } from "vitest";
import { Agent } from "../src/index.js";

let faux: FauxProviderRegistration;
beforeEach(() => {
	faux = registerFauxProvider({
		models: [
			{ id: "reads-pdf", input: ["text", "image", "pdf"] },
			{ id: "text-only", input: ["text"] },
		],
	});
});
afterEach(() => faux.unregister());

const pdf: UserContent = { type: "file", mimeType: "application/pdf", data: "JVBERi0xLjc=", filename: "q3.pdf" };

it("prompt(text, [file]) sends the file after the text to a model that reads PDFs", async () => {
	faux.setResponses(["Summary."]);
	const agent = new Agent({ initialState: { model: faux.getModel("reads-pdf") } });
	await agent.prompt("Summarise", [pdf]);
	const sent = faux.state.requests[0].context.messages[0] as UserMessage;
	expect(sent.content).toEqual([{ type: "text", text: "Summarise" }, pdf]);
	expect((agent.state.messages.at(-1) as AssistantMessage).stopReason).toBe("stop");
});

it("a model without PDF input ends the run with an error naming the file and what to do", async () => {
	faux.setResponses(["never sent"]);
	const agent = new Agent({ initialState: { model: faux.getModel("text-only") } });
	await agent.prompt("Summarise", [pdf]);
	const last = agent.state.messages.at(-1) as AssistantMessage;
	expect(last.stopReason).toBe("error");
	expect(last.errorMessage).toContain('does not read PDF files ("q3.pdf")');
	expect(last.errorMessage).toContain('choose a model whose input includes "pdf"');
	expect(last.content).toEqual([]);
});
