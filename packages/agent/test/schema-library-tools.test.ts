// Agent tools whose parameters are a Zod schema: execute gets Zod's output (typed from the schema,
// transforms applied), and arguments Zod rejects become an error result carrying Zod's messages,
// which the model reads to fix its call.

import type { ToolResultMessage } from "@keel/ai";
import { fauxAssistantMessage, fauxText, fauxToolCall, registerFauxProvider } from "@keel/ai/testing";
import { afterEach, beforeEach, describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { Agent, type AgentTool } from "../src/index.js";

let faux: ReturnType<typeof registerFauxProvider>;
beforeEach(() => {
	faux = registerFauxProvider();
});
afterEach(() => faux.unregister());

const parameters = z.object({
	city: z.string().min(2),
	unit: z.enum(["c", "f"]).default("c"),
	days: z.string().transform((text) => Number.parseInt(text, 10)),
});

function weatherTool(calls: unknown[]): AgentTool<typeof parameters> {
	return {
		name: "weather",
		label: "Weather",
		description: "The weather in a city",
		parameters,
		async execute(_toolCallId, params) {
			expectTypeOf(params).toEqualTypeOf<{ city: string; unit: "c" | "f"; days: number }>();
			calls.push(params);
			return { content: [{ type: "text", text: `${params.city}: sunny for ${params.days} days` }], details: undefined };
		},
	};
}

function toolResults(agent: Agent): ToolResultMessage[] {
	return agent.state.messages.filter((message): message is ToolResultMessage => message.role === "toolResult");
}

describe("Zod tools in the agent", () => {
	it("execute receives Zod's output: the default filled in and the transform applied", async () => {
		const calls: unknown[] = [];
		faux.setResponses([
			fauxAssistantMessage(fauxToolCall("weather", { city: "Paris", days: "3" })),
			fauxAssistantMessage(fauxText("Sunny.")),
		]);
		const agent = new Agent({ initialState: { model: faux.getModel(), tools: [weatherTool(calls)] } });
		await agent.prompt("Weather in Paris?");
		expect(calls).toEqual([{ city: "Paris", unit: "c", days: 3 }]);
		expect(toolResults(agent)[0]).toMatchObject({ isError: false, content: [{ text: "Paris: sunny for 3 days" }] });
		// The tool reaches the provider with its Zod schema; each encoder converts it (see @keel/ai's schema tests).
		expect(faux.state.requests[0].context.tools?.[0].parameters).toBe(parameters);
	});

	it("arguments Zod rejects become an error result with Zod's messages; the corrected call then runs", async () => {
		const calls: unknown[] = [];
		faux.setResponses([
			fauxAssistantMessage(fauxToolCall("weather", { city: "P", unit: "k", days: "2" })),
			fauxAssistantMessage(fauxToolCall("weather", { city: "Paris", unit: "f", days: "2" })),
			fauxAssistantMessage(fauxText("Sunny.")),
		]);
		const agent = new Agent({ initialState: { model: faux.getModel(), tools: [weatherTool(calls)] } });
		await agent.prompt("Weather in Paris?");
		const [rejected, accepted] = toolResults(agent);
		expect(rejected.isError).toBe(true);
		const text = rejected.content.map((block) => (block.type === "text" ? block.text : "")).join("");
		expect(text).toContain('Validation failed for tool "weather":');
		expect(text).toContain("- city: Too small: expected string to have >=2 characters");
		expect(text).toContain('- unit: Invalid option: expected one of "c"|"f"');
		// The model's next request carries that error result, so it can fix the call.
		expect(faux.state.requests[1].context.messages.at(-1)).toMatchObject({ role: "toolResult", isError: true });
		expect(accepted.isError).toBe(false);
		expect(calls).toEqual([{ city: "Paris", unit: "f", days: 2 }]);
	});

	it("an asynchronous Zod check is awaited before the tool runs", async () => {
		const checked = z.object({ city: z.string().refine(async (city) => city !== "Atlantis", "no such city") });
		const visited: string[] = [];
		const visit: AgentTool<typeof checked> = {
			name: "visit",
			label: "Visit",
			description: "Visit a city",
			parameters: checked,
			async execute(_toolCallId, params) {
				visited.push(params.city);
				return { content: [{ type: "text", text: "ok" }], details: undefined };
			},
		};
		faux.setResponses([
			fauxAssistantMessage([fauxToolCall("visit", { city: "Atlantis" }), fauxToolCall("visit", { city: "Rome" })]),
			fauxAssistantMessage(fauxText("Done.")),
		]);
		const agent = new Agent({ initialState: { model: faux.getModel(), tools: [visit] } });
		await agent.prompt("Go");
		expect(visited).toEqual(["Rome"]);
		expect(toolResults(agent).map((result) => result.isError)).toEqual([true, false]);
		expect(toolResults(agent)[0].content).toEqual([
			{ type: "text", text: expect.stringContaining("- city: no such city") },
		]);
	});
});
