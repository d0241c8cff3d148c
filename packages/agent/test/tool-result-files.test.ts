// A tool may return a file (a PDF it fetched) in its result: the Agent keeps it in the toolResult
// message and sends it to the model; a model that cannot read it gets a note in its place and the
// run goes on (the tool chose the file, so the model should learn why it is missing, not fail).
import { type AssistantMessage, type FileContent, type ToolResultMessage, Type, transformMessages } from "@keel/ai";
import {
	type FauxProviderRegistration,
	fauxAssistantMessage,
	fauxToolCall,
	registerFauxProvider,
} from "@keel/ai/testing";
import { afterEach, beforeEach, expect, it } from "vitest";
import { Agent, type AgentTool, type AgentToolResult } from "../src/index.js";

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

const invoice: FileContent = {
	type: "file",
	mimeType: "application/pdf",
	data: "JVBERi0xLjc=",
	filename: "invoice.pdf",
};

const fetchInvoice: AgentTool = {
	name: "fetch_invoice",
	label: "Fetch invoice",
	description: "Fetches an invoice as a PDF",
	parameters: Type.Object({}),
	async execute(): Promise<AgentToolResult<undefined>> {
		return { content: [{ type: "text", text: "Invoice 7:" }, invoice], details: undefined };
	},
};

function toolResultSent(request: number): ToolResultMessage {
	const sent = faux.state.requests[request].context.messages.find((message) => message.role === "toolResult");
	if (!sent) throw new Error("no tool result sent");
	return sent as ToolResultMessage;
}

it("a tool's PDF is kept in the toolResult message and sent to a model that reads PDFs", async () => {
	faux.setResponses([fauxAssistantMessage(fauxToolCall("fetch_invoice", {}, "call-1")), "It is due in March."]);
	const agent = new Agent({ initialState: { model: faux.getModel("reads-pdf"), tools: [fetchInvoice] } });
	await agent.prompt("When is invoice 7 due?");
	const stored = agent.state.messages.find((message) => message.role === "toolResult") as ToolResultMessage;
	expect(stored.content).toEqual([{ type: "text", text: "Invoice 7:" }, invoice]);
	expect(toolResultSent(1).content).toEqual([{ type: "text", text: "Invoice 7:" }, invoice]);
	expect((agent.state.messages.at(-1) as AssistantMessage).stopReason).toBe("stop");
});

it("a model without PDF input reads a note in place of the tool's PDF, and the run goes on", async () => {
	faux.setResponses([fauxAssistantMessage(fauxToolCall("fetch_invoice", {}, "call-1")), "I cannot open it."]);
	const agent = new Agent({ initialState: { model: faux.getModel("text-only"), tools: [fetchInvoice] } });
	await agent.prompt("When is invoice 7 due?");
	// The call was made (no error before it); what the encoders send is the prepared context.
	const request = faux.state.requests[1];
	const prepared = transformMessages(request.context.messages, request.model);
	const sent = (prepared.find((message) => message.role === "toolResult") as ToolResultMessage).content;
	expect(sent).toEqual([
		{ type: "text", text: "Invoice 7:" },
		{ type: "text", text: '(file "invoice.pdf" omitted: this model does not accept it)' },
	]);
	const last = agent.state.messages.at(-1) as AssistantMessage;
	expect(last.stopReason).toBe("stop");
	expect(last.content).toEqual([{ type: "text", text: "I cannot open it." }]);
});
