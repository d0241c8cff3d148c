// An Agent whose stream function is a fallback chain: the run sees one answer per turn, from the
// model that answered, and the transcript records the chain's attempts.
import { type AssistantMessage, createFallbackStream, FALLBACK_ATTEMPT_DIAGNOSTIC } from "@keel/ai";
import { type FauxProviderRegistration, fauxAssistantMessage, registerFauxProvider } from "@keel/ai/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Agent, type AgentEvent } from "../src/index.js";

let primary: FauxProviderRegistration<"faux-primary">;
let backup: FauxProviderRegistration<"faux-backup">;

beforeEach(() => {
	primary = registerFauxProvider({ api: "faux-primary", provider: "primary", models: [{ id: "primary-model" }] });
	backup = registerFauxProvider({ api: "faux-backup", provider: "backup", models: [{ id: "backup-model" }] });
});
afterEach(() => {
	primary.unregister();
	backup.unregister();
});

describe("Agent with a fallback stream function", () => {
	it("answers from the backup when the primary fails, with one assistant message per turn", async () => {
		primary.setResponses([fauxAssistantMessage("", { stopReason: "error", errorMessage: "503 overloaded" })]);
		backup.setResponses(["Hello from the backup."]);
		const agent = new Agent({
			initialState: { model: primary.getModel() },
			streamFn: createFallbackStream([primary.getModel(), backup.getModel()]),
		});
		const events: AgentEvent[] = [];
		agent.subscribe((event) => {
			events.push(event);
		});
		await agent.prompt("hi");

		const assistantStarts = events.filter(
			(event) => event.type === "message_start" && (event.message as { role?: string }).role === "assistant",
		);
		expect(assistantStarts).toHaveLength(1);
		const answer = agent.state.messages[1] as AssistantMessage;
		expect(answer.model).toBe("backup-model");
		expect(answer.content).toEqual([{ type: "text", text: "Hello from the backup." }]);
		expect(agent.state.errorMessage).toBeUndefined();
		const recorded = answer.diagnostics?.filter((diagnostic) => diagnostic.type === FALLBACK_ATTEMPT_DIAGNOSTIC);
		expect(recorded?.map((diagnostic) => [diagnostic.details?.model, diagnostic.details?.outcome])).toEqual([
			["primary-model", "failed"],
			["backup-model", "answered"],
		]);
	});

	it("keeps the agent's model first on the next turn once it recovers", async () => {
		primary.setResponses([
			fauxAssistantMessage("", { stopReason: "error", errorMessage: "503 overloaded" }),
			"Back again.",
		]);
		backup.setResponses(["From the backup."]);
		const agent = new Agent({
			initialState: { model: primary.getModel() },
			streamFn: createFallbackStream([primary.getModel(), backup.getModel()]),
		});
		await agent.prompt("first");
		await agent.prompt("second");
		const answers = agent.state.messages.filter((message) => (message as { role?: string }).role === "assistant");
		expect(answers.map((message) => (message as AssistantMessage).model)).toEqual(["backup-model", "primary-model"]);
		// The backup's answer in the history reached the primary rewritten for it, without error.
		expect(primary.state.requests[1].context.messages).toHaveLength(3);
	});
});
