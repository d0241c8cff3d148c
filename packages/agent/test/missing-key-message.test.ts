// An Agent has no options.apiKey: when its model's provider has no key, the run's error names the
// variable to set and the Agent's own way in, getApiKey.
import { getModel } from "@keel/ai";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Agent } from "../src/index.js";

describe("an Agent whose provider has no key", () => {
	beforeEach(() => {
		vi.stubEnv("OPENAI_API_KEY", "");
	});
	afterEach(() => {
		vi.unstubAllEnvs();
	});

	it("ends the run with an error that names getApiKey, not options.apiKey", async () => {
		const agent = new Agent({ initialState: { model: getModel("openai", "gpt-5.1") } });
		await agent.prompt("hi");
		expect(agent.state.errorMessage).toBe(
			'No API key for provider "openai": set OPENAI_API_KEY or give the Agent a getApiKey callback (new Agent({ getApiKey }))',
		);
	});
});
