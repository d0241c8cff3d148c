// pi 1.5's prepareRequest and finishTurn hooks on Keel's Agent, against the faux provider:
// prepareRequest runs right before every LLM call (the first included) and its context, model and
// thinking level apply from that call on; finishTurn runs before turn_end and ends the run or asks
// for one more call.
import { createModels } from "@keel/ai";
import { fauxAssistantMessage, fauxProvider, fauxText, fauxToolCall } from "@keel/ai/testing";
import { describe, expect, it } from "vitest";
import { Agent, type AgentEvent } from "../src/index.js";
import { echoTool, textOf } from "./helpers.js";

function collectionWithFaux() {
	const faux = fauxProvider({ models: [{ id: "first" }, { id: "second", reasoning: true }] });
	const models = createModels();
	models.setProvider(faux.provider);
	return { faux, models };
}

describe("prepareRequest", () => {
	it("runs before the first call too, and its model and thinking level are the ones called", async () => {
		const { faux, models } = collectionWithFaux();
		faux.setResponses([fauxAssistantMessage("one")]);
		const requests: { model: string; thinkingLevel: string; messages: number }[] = [];
		const agent = new Agent({
			initialState: { model: faux.getModel("first"), thinkingLevel: "off" },
			streamFn: models.streamSimple,
			prepareRequest: ({ model, thinkingLevel, context }) => {
				requests.push({ model: model.id, thinkingLevel, messages: context.messages.length });
				return { model: faux.getModel("second"), thinkingLevel: "high" };
			},
		});
		await agent.prompt("hi");
		// The prompt is already in the context when the hook runs.
		expect(requests).toEqual([{ model: "first", thinkingLevel: "off", messages: 1 }]);
		const answer = agent.state.messages.at(-1);
		expect(answer).toMatchObject({ role: "assistant", model: "second" });
	});

	it("sees the run's current values on later calls, and its context replaces the transcript sent", async () => {
		const { faux, models } = collectionWithFaux();
		const sent: string[][] = [];
		faux.setResponses([
			(context) => {
				sent.push(context.messages.map((message) => textOf(message as never)));
				return fauxAssistantMessage([fauxToolCall("echo", { value: "1" })]);
			},
			(context) => {
				sent.push(context.messages.map((message) => textOf(message as never)));
				return fauxAssistantMessage("done");
			},
		]);
		const levels: string[] = [];
		const agent = new Agent({
			initialState: { model: faux.getModel("second"), thinkingLevel: "low", tools: [echoTool()] },
			streamFn: models.streamSimple,
			prepareRequest: ({ context, thinkingLevel }) => {
				levels.push(thinkingLevel);
				// Keep only the last message: what a compaction step would do.
				return { context: { ...context, messages: context.messages.slice(-1) }, thinkingLevel: "medium" };
			},
		});
		await agent.prompt("start");
		expect(levels).toEqual(["low", "medium"]);
		expect(sent).toEqual([["start"], ["echo:1"]]);
	});

	it("ends the run with an error message naming the hook when it throws", async () => {
		const { faux, models } = collectionWithFaux();
		faux.setResponses([fauxAssistantMessage("never")]);
		const agent = new Agent({
			initialState: { model: faux.getModel("first") },
			streamFn: models.streamSimple,
			prepareRequest: () => {
				throw new Error("no budget left");
			},
		});
		await agent.prompt("hi");
		expect(faux.state.callCount).toBe(0);
		expect(agent.state.errorMessage).toContain("no budget left");
		expect(agent.state.errorMessage).toContain("prepareRequest");
	});
});

describe("finishTurn", () => {
	it("runs before turn_end with the turn's message and tool results", async () => {
		const { faux, models } = collectionWithFaux();
		faux.setResponses([fauxAssistantMessage([fauxToolCall("echo", { value: "a" })]), fauxAssistantMessage("done")]);
		const order: string[] = [];
		const agent = new Agent({
			initialState: { model: faux.getModel("first"), tools: [echoTool()] },
			streamFn: models.streamSimple,
			finishTurn: (turn) => {
				order.push(`finishTurn:${turn.toolResults.map((result) => textOf(result)).join()}`);
				expect(turn.context.messages.at(-1)).toBe(turn.toolResults.at(-1) ?? turn.message);
			},
		});
		agent.subscribe((event: AgentEvent) => {
			if (event.type === "turn_end") order.push("turn_end");
		});
		await agent.prompt("go");
		expect(order).toEqual(["finishTurn:echo:a", "turn_end", "finishTurn:", "turn_end"]);
	});

	it("ends the run after a turn that called tools when it answers end", async () => {
		const { faux, models } = collectionWithFaux();
		faux.setResponses([fauxAssistantMessage([fauxToolCall("echo", { value: "a" })]), fauxAssistantMessage("never")]);
		const events: string[] = [];
		const agent = new Agent({
			initialState: { model: faux.getModel("first"), tools: [echoTool()] },
			streamFn: models.streamSimple,
			finishTurn: () => ({ action: "end" }),
		});
		agent.subscribe((event: AgentEvent) => void events.push(event.type));
		await agent.prompt("go");
		expect(faux.state.callCount).toBe(1);
		expect(events.slice(-2)).toEqual(["turn_end", "agent_end"]);
		expect(agent.state.messages.at(-1)).toMatchObject({ role: "toolResult" });
	});

	it("asks for one more call on the current context after a turn without tool calls when it answers continue", async () => {
		const { faux, models } = collectionWithFaux();
		faux.setResponses([fauxAssistantMessage("first answer"), fauxAssistantMessage([fauxText("second answer")])]);
		let turns = 0;
		const agent = new Agent({
			initialState: { model: faux.getModel("first") },
			streamFn: models.streamSimple,
			finishTurn: () => (++turns === 1 ? { action: "continue" } : undefined),
		});
		await agent.prompt("go");
		expect(faux.state.callCount).toBe(2);
		expect(agent.state.messages.map((message) => textOf(message as never))).toEqual([
			"go",
			"first answer",
			"second answer",
		]);
	});

	it("gives a batch whose tools asked to terminate one more call when it answers continue", async () => {
		const { faux, models } = collectionWithFaux();
		faux.setResponses([fauxAssistantMessage([fauxToolCall("echo", { value: "a" })]), fauxAssistantMessage("after")]);
		let turns = 0;
		const agent = new Agent({
			initialState: { model: faux.getModel("first"), tools: [echoTool()] },
			streamFn: models.streamSimple,
			beforeToolCall: () => ({ block: true, reason: "stop here", terminate: true }),
			finishTurn: () => (++turns === 1 ? { action: "continue" } : undefined),
		});
		await agent.prompt("go");
		expect(faux.state.callCount).toBe(2);
		expect(textOf(agent.state.messages.at(-1) as never)).toBe("after");
	});

	it("adds no extra call when a follow-up already gives the next one", async () => {
		const { faux, models } = collectionWithFaux();
		faux.setResponses([fauxAssistantMessage("one"), fauxAssistantMessage("two")]);
		let turns = 0;
		const agent = new Agent({
			initialState: { model: faux.getModel("first") },
			streamFn: models.streamSimple,
			finishTurn: () => {
				turns++;
				if (turns === 1) agent.followUp({ role: "user", content: "more", timestamp: Date.now() });
				return turns === 1 ? { action: "continue" } : undefined;
			},
		});
		await agent.prompt("go");
		expect(faux.state.callCount).toBe(2);
		expect(turns).toBe(2);
	});

	it("is told of an error turn, and the run still ends there", async () => {
		const { faux, models } = collectionWithFaux();
		faux.setResponses([fauxAssistantMessage("broken", { stopReason: "error", errorMessage: "upstream 500" })]);
		const told: string[] = [];
		const agent = new Agent({
			initialState: { model: faux.getModel("first") },
			streamFn: models.streamSimple,
			finishTurn: (turn) => {
				told.push(turn.message.stopReason);
				return { action: "continue" };
			},
		});
		await agent.prompt("go");
		expect(told).toEqual(["error"]);
		expect(faux.state.callCount).toBe(1);
	});
});
