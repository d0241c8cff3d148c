// pi-agent-core 1.5's documented examples (its README's quick start, agent options and state
// management sections), rewritten as tests against Keel with the imports renamed:
// `@earendil-works/pi-agent-core` → `@keel/agent-core`, `@earendil-works/pi-ai` → `@keel/ai`, faux
// helpers from `@keel/ai/testing`.
import { createModels } from "@keel/ai";
import { fauxAssistantMessage, fauxProvider, fauxText, fauxToolCall } from "@keel/ai/testing";
import { describe, expect, it } from "vitest";
import { Agent, type AgentEvent } from "../src/index.js";
import { echoTool, textOf } from "./helpers.js";

function collectionWithFaux() {
	const faux = fauxProvider();
	const models = createModels();
	models.setProvider(faux.provider);
	return { faux, models };
}

describe("pi-agent-core README", () => {
	it("quick start: an Agent streaming through a Models collection prints text deltas", async () => {
		const { faux, models } = collectionWithFaux();
		faux.setResponses([fauxAssistantMessage("Hello there!")]);
		const model = models.getModel("faux", "faux-model");
		if (!model) throw new Error("Model not found");
		const agent = new Agent({
			initialState: { systemPrompt: "You are a helpful assistant.", model },
			streamFn: models.streamSimple.bind(models),
		});
		let printed = "";
		agent.subscribe((event) => {
			if (event.type === "message_update" && event.assistantMessageEvent.type === "text_delta") {
				printed += event.assistantMessageEvent.delta;
			}
		});
		await agent.prompt("Hello!");
		expect(printed).toBe("Hello there!");
	});

	it("agent options: beforeToolCall blocks bash with terminate, and the run stops after that turn", async () => {
		const { faux, models } = collectionWithFaux();
		faux.setResponses([
			fauxAssistantMessage([fauxToolCall("bash", { value: "rm -rf /" })]),
			fauxAssistantMessage("never"),
		]);
		const agent = new Agent({
			initialState: { model: faux.getModel(), tools: [echoTool("bash")] },
			streamFn: models.streamSimple,
			beforeToolCall: async ({ toolCall }) => {
				if (toolCall.name === "bash") return { block: true, reason: "bash is disabled", terminate: true };
				return undefined;
			},
		});
		await agent.prompt("clean up");
		expect(faux.state.callCount).toBe(1);
		expect(textOf(agent.state.messages.at(-1) as never)).toBe("bash is disabled");
	});

	it("agent options: afterToolCall ends the run on notify_done", async () => {
		const { faux, models } = collectionWithFaux();
		faux.setResponses([
			fauxAssistantMessage([fauxToolCall("notify_done", { value: "x" })]),
			fauxAssistantMessage("never"),
		]);
		const agent = new Agent({
			initialState: { model: faux.getModel(), tools: [echoTool("notify_done")] },
			streamFn: models.streamSimple,
			afterToolCall: async ({ toolCall, isError }) =>
				toolCall.name === "notify_done" && !isError ? { terminate: true } : undefined,
		});
		await agent.prompt("finish");
		expect(faux.state.callCount).toBe(1);
	});

	it("state management: peekQueuedMessages respects queue modes and does not consume", async () => {
		const { faux, models } = collectionWithFaux();
		faux.setResponses([fauxAssistantMessage([fauxText("first")]), fauxAssistantMessage("second")]);
		const agent = new Agent({ initialState: { model: faux.getModel() }, streamFn: models.streamSimple });
		agent.followUp({ role: "user", content: "Also summarize the result.", timestamp: Date.now() });
		expect(agent.peekQueuedMessages().map(textOf)).toEqual(["Also summarize the result."]);
		const events: AgentEvent[] = [];
		agent.subscribe((event) => void events.push(event));
		await agent.prompt("go");
		expect(agent.peekQueuedMessages()).toEqual([]);
		expect(faux.state.callCount).toBe(2);
	});
});
