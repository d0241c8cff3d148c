// Run with plain `node` in a project that installed the packed tarballs with npm: streams one
// answer from the faux provider, then runs an Agent with one tool to the end, and prints what
// happened as one JSON line for the test to check.
import { Agent } from "@keel/agent-core";
import { stream, Type } from "@keel/ai";
import { fauxAssistantMessage, fauxText, fauxToolCall, registerFauxProvider } from "@keel/ai/testing";

// Registered on the app's copy of @keel/ai. The Agent finds this provider only if
// @keel/agent-core imports the same copy (else: "No API provider registered for api: faux").
const faux = registerFauxProvider();
const model = faux.getModel();

faux.setResponses([
	"Streamed from the faux provider.",
	fauxAssistantMessage([fauxText("Let me add them."), fauxToolCall("add", { a: 20, b: 22 })]),
	// The second agent turn answers with the tool result it was sent, as a real model would.
	(context) => {
		const toolResult = context.messages.findLast((message) => message.role === "toolResult");
		const text = toolResult.content.map((block) => block.text).join("");
		return `The sum is ${text}.`;
	},
]);

const events = stream(model, { messages: [{ role: "user", content: "Hello", timestamp: Date.now() }] });
let streamedText = "";
for await (const event of events) {
	if (event.type === "text_delta") streamedText += event.delta;
}
const streamed = await events.result();

const toolCalls = [];
const addTool = {
	name: "add",
	label: "Add",
	description: "Adds two numbers.",
	parameters: Type.Object({ a: Type.Number(), b: Type.Number() }),
	async execute(_toolCallId, { a, b }) {
		toolCalls.push({ a, b });
		return { content: [{ type: "text", text: String(a + b) }], details: { sum: a + b } };
	},
};

const agent = new Agent({ initialState: { model, tools: [addTool] } });
const eventTypes = [];
agent.subscribe((event) => {
	eventTypes.push(event.type);
});
await agent.prompt("What is 20 + 22?");

const last = agent.state.messages.at(-1);
console.log(
	JSON.stringify({
		streamedText,
		streamedStopReason: streamed.stopReason,
		toolCalls,
		finalText: last.content.map((block) => (block.type === "text" ? block.text : "")).join(""),
		finalStopReason: last.stopReason,
		agentError: agent.state.errorMessage ?? null,
		lastEvent: eventTypes.at(-1),
		fauxCalls: faux.state.callCount,
	}),
);
