import { Type } from "@keel/ai";
import { describe, expect, expectTypeOf, it } from "vitest";
import { Agent, type AgentTool } from "../src/index.js";

describe("AgentTool types", () => {
	it("infers execute's params from the TypeBox schema, and a typed tool fits the Agent's tool list", () => {
		const parameters = Type.Object({ city: Type.String(), days: Type.Optional(Type.Number()) });
		const weather: AgentTool<typeof parameters, { temperature: number }> = {
			name: "get_weather",
			label: "Weather",
			description: "weather",
			parameters,
			async execute(_id, params) {
				expectTypeOf(params).toEqualTypeOf<{ city: string; days?: number }>();
				return { content: [{ type: "text", text: params.city }], details: { temperature: 20 } };
			},
		};
		const agent = new Agent({ initialState: { tools: [weather] } });
		expect(agent.state.tools[0].name).toBe("get_weather");
	});
});
