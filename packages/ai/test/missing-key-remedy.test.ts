// A call without a key ends with an error that names the variable to set and the caller's own way
// to give a key: `options.apiKey` for a caller of stream(), whatever `missingKeyRemedy` says otherwise.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { complete, getModel } from "../src/index.js";

const context = { messages: [{ role: "user" as const, content: "hi", timestamp: 0 }] };

describe("the missing-key error of a call", () => {
	beforeEach(() => {
		vi.stubEnv("OPENAI_API_KEY", "");
	});
	afterEach(() => {
		vi.unstubAllEnvs();
	});

	it("tells a caller of complete() to set the variable or pass options.apiKey", async () => {
		const message = await complete(getModel("openai", "gpt-5.1"), context);
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toBe('No API key for provider "openai": set OPENAI_API_KEY or pass options.apiKey');
	});

	it("names the remedy given in missingKeyRemedy instead", async () => {
		const message = await complete(getModel("openai", "gpt-5.1"), context, { missingKeyRemedy: "run `app login`" });
		expect(message.errorMessage).toBe('No API key for provider "openai": set OPENAI_API_KEY or run `app login`');
	});
});
