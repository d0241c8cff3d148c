import { describe, expect, it } from "vitest";
import { completeSimple, getModels } from "../src/index.js";
import { testModel } from "./helpers/models.js";

describe("models whose wire API Keel does not speak yet", () => {
	it("end with one clear error event instead of throwing", async () => {
		const model = testModel({
			api: "google-gemini-cli",
			id: "gemini-test",
			name: "Gemini Test",
			provider: "google-gemini-cli",
			baseUrl: "http://127.0.0.1:9",
		});
		const result = await completeSimple(model, { messages: [{ role: "user", content: "hi", timestamp: 0 }] });
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toContain(
			`The "google-gemini-cli" API (model "google-gemini-cli/gemini-test") is not implemented in Keel yet`,
		);
		expect(result.errorMessage).toContain(
			"anthropic-messages, openai-completions, openai-responses, azure-openai-responses",
		);
	});

	it("covers every api in the catalogue", async () => {
		const { getApiProvider, getProviders } = await import("../src/index.js");
		const apis = new Set(getProviders().flatMap((provider) => getModels(provider).map((model) => model.api)));
		for (const api of apis) expect(getApiProvider(api), api).toBeDefined();
	});
});
