// The browser side of the proxy example: an Agent whose stream function is streamProxy, with one
// tool that runs in the page. The provider key never reaches the browser; the page only holds a
// token for the proxy. Bundled for the browser by build.ts.
//
// In an application, import streamProxy from "@keel/proxy"; the example imports this package's
// source (and build.ts points @keel/agent-core and @keel/ai at theirs) so it runs from a checkout
// without a build.
import { Agent, type AgentMessage, type AgentTool } from "@keel/agent-core";
import { type AssistantMessage, type Model, Type } from "@keel/ai";
import { streamProxy } from "../../src/index.js";

// The page is configured by its URL, for example /?token=demo-token&provider=anthropic&model=claude-sonnet-4-5
const query = new URLSearchParams(location.search);
const authToken = query.get("token") ?? "demo-token";
const proxyUrl = query.get("proxy") ?? location.origin;

// The proxy resolves the model from provider and id; only those two (and `api`, which labels the
// rebuilt messages) matter here. Cost and limits are the server's business.
const model: Model = {
	id: query.get("model") ?? "faux-model",
	name: query.get("model") ?? "faux-model",
	api: query.get("api") ?? "faux",
	provider: query.get("provider") ?? "faux",
	baseUrl: "",
	reasoning: false,
	input: ["text"],
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
	contextWindow: 128_000,
	maxTokens: 4096,
};

const addNumbers: AgentTool = {
	name: "add_numbers",
	label: "Add numbers",
	description: "Adds two numbers and returns the sum.",
	parameters: Type.Object({ a: Type.Number(), b: Type.Number() }),
	async execute(_toolCallId, params) {
		const { a, b } = params as { a: number; b: number };
		return { content: [{ type: "text", text: String(a + b) }], details: { sum: a + b } };
	},
};

const agent = new Agent({
	initialState: {
		systemPrompt: "You are a helpful assistant. Use add_numbers for arithmetic.",
		model,
		tools: [addNumbers],
	},
	// Every option the Agent passes (sessionId, reasoning, …) goes through; streamProxy forwards
	// the safe ones and drops the rest (apiKey, credential headers).
	streamFn: (streamModel, context, options) => streamProxy(streamModel, context, { ...options, proxyUrl, authToken }),
});

const messagesElement = document.querySelector<HTMLDivElement>("#messages")!;
const form = document.querySelector<HTMLFormElement>("#composer")!;
const promptInput = document.querySelector<HTMLInputElement>("#prompt")!;
const sendButton = document.querySelector<HTMLButtonElement>("#send")!;
const statusElement = document.querySelector<HTMLParagraphElement>("#status")!;

function element(className: string, text: string): HTMLDivElement {
	const div = document.createElement("div");
	div.className = className;
	div.textContent = text;
	return div;
}

function renderAssistant(message: AssistantMessage): HTMLDivElement {
	const container = element("message assistant", "");
	for (const block of message.content) {
		if (block.type === "text") container.append(element("text", block.text));
		else if (block.type === "thinking") container.append(element("thinking", block.thinking));
		else container.append(element("tool-call", `${block.name}(${JSON.stringify(block.arguments)})`));
	}
	if (message.stopReason === "error" || message.stopReason === "aborted") {
		container.append(element("error", message.errorMessage ?? message.stopReason));
	}
	return container;
}

function renderMessage(message: AgentMessage): HTMLDivElement | undefined {
	if (!("role" in message)) return undefined;
	if (message.role === "user") {
		const text =
			typeof message.content === "string"
				? message.content
				: message.content.map((block) => (block.type === "text" ? block.text : "[image]")).join("");
		return element("message user", text);
	}
	if (message.role === "assistant") return renderAssistant(message);
	if (message.role === "toolResult") {
		const text = message.content.map((block) => (block.type === "text" ? block.text : "[image]")).join("");
		return element(`message tool-result${message.isError ? " error" : ""}`, `${message.toolName} → ${text}`);
	}
	return undefined;
}

/** Re-renders the transcript plus the message being streamed; small transcripts make this cheap. */
function render(): void {
	const state = agent.state;
	const nodes = state.messages.flatMap((message) => renderMessage(message) ?? []);
	if (state.streamingMessage) {
		const streaming = renderMessage(state.streamingMessage);
		if (streaming) {
			streaming.classList.add("streaming");
			nodes.push(streaming);
		}
	}
	messagesElement.replaceChildren(...nodes);
	sendButton.disabled = state.isStreaming;
	statusElement.textContent = state.isStreaming ? "Thinking…" : (state.errorMessage ?? "");
}

agent.subscribe(() => render());

form.addEventListener("submit", (event) => {
	event.preventDefault();
	const text = promptInput.value.trim();
	if (!text || agent.state.isStreaming) return;
	promptInput.value = "";
	agent
		.prompt(text)
		// The agent is idle only after its agent_end listeners ran, so the final render comes here.
		.then(render, (error: unknown) => {
			statusElement.textContent = error instanceof Error ? error.message : String(error);
		});
});

render();
