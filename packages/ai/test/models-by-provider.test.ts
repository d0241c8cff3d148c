// `@keel/ai/models/<provider>`: one provider's catalogue, typed, with the same rows as the root
// entry's lookups, for apps that should not bundle the other providers' data.
import { describe, expect, it } from "vitest";
import * as anthropic from "../src/models/by-provider/anthropic.js";
import * as openai from "../src/models/by-provider/openai.js";
import { getModel as getAnyModel, getModels as getAnyModels } from "../src/models/catalogue.js";
import type { Model } from "../src/types.js";

describe("a per-provider models entry", () => {
	it("returns the root catalogue's row for an id, typed with its api", () => {
		const model: Model<"anthropic-messages"> = anthropic.getModel("claude-sonnet-4-6");
		expect(model).toEqual(getAnyModel("anthropic", "claude-sonnet-4-6"));
		const responses: Model<"openai-responses"> = openai.getModel("gpt-5.1");
		expect(responses.api).toBe("openai-responses");
		expect(anthropic.PROVIDER).toBe("anthropic");
	});

	it("rejects an id of another provider at compile time and returns undefined for it at run time", () => {
		// @ts-expect-error: gpt-5.1 is not an anthropic model
		expect(anthropic.getModel("gpt-5.1")).toBeUndefined();
		expect(anthropic.findModel("gpt-5.1")).toBeUndefined();
		expect(anthropic.findModel("__proto__")).toBeUndefined();
	});

	it("lists the provider's models sorted by id, as the root getModels does", () => {
		const ids = anthropic.getModels().map((model) => model.id);
		expect(ids).toEqual(getAnyModels("anthropic").map((model) => model.id));
		expect(ids).toEqual([...ids].sort());
	});

	it("hands out frozen models", () => {
		const model = anthropic.getModel("claude-sonnet-4-6");
		expect(Object.isFrozen(model)).toBe(true);
		expect(Object.isFrozen(model.cost)).toBe(true);
		expect(() => {
			(model as { maxTokens: number }).maxTokens = 1;
		}).toThrow(TypeError);
	});
});
