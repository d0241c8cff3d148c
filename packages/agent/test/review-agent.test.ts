// Review: the Agent's steering in both queue modes and both tool-execution modes.
import {
	type FauxProviderRegistration,
	fauxAssistantMessage,
	fauxToolCall,
	registerFauxProvider,
} from "@keel/ai/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Agent, SKIPPED_FOR_STEERING_TEXT } from "../src/index.js";
import { echoTool, textOf, user } from "./helpers.js";

let faux: FauxProviderRegistration;
beforeEach(() => {
	faux = registerFauxProvider();
});
afterEach(() => {
	faux.unregister();
});

describe("review: Agent steering", () => {
	for (const toolExecution of ["sequential", "parallel"] as const) {
		for (const steeringMode of ["one-at-a-time", "all"] as const) {
			it(`${steeringMode}, ${toolExecution}: no steering message is lost or duplicated`, async () => {
				const agent = new Agent({ initialState: { model: faux.getModel() }, toolExecution, steeringMode });
				const typing = {
					...echoTool("typing"),
					execute: async () => {
						agent.steer(user("s1"));
						agent.steer(user("s2"));
						return { content: [{ type: "text" as const, text: "typed" }], details: {} };
					},
				};
				agent.state.tools = [typing, echoTool()];
				faux.setResponses([
					fauxAssistantMessage([
						fauxToolCall("typing", { value: "1" }, "c1"),
						fauxToolCall("echo", { value: "2" }, "c2"),
					]),
					"a1",
					"a2",
					"a3",
				]);
				await agent.prompt("go");
				// The second call is skipped in sequential mode; in parallel mode it already ran with the first.
				const second = toolExecution === "sequential" ? SKIPPED_FOR_STEERING_TEXT : "echo:2";
				const expected =
					steeringMode === "all"
						? ["go", "", "typed", second, "s1", "s2", "a1"]
						: ["go", "", "typed", second, "s1", "a1", "s2", "a2"];
				expect(agent.state.messages.map(textOf)).toEqual(expected);
				expect(agent.hasQueuedMessages()).toBe(false);
			});
		}
	}
});
