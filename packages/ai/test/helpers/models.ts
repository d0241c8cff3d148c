// Literal models for provider tests: the tests must not depend on the generated catalogue. Each
// provider's fixtures name their model; the fields no test cares about are filled in once here.
import type { Api, Model } from "../../src/types.js";

type RequiredFields<TApi extends Api> = Pick<Model<TApi>, "api" | "id" | "name" | "provider" | "baseUrl">;

/** A text-and-image model without reasoning; `fields` and then `overrides` win. */
export function testModel<TApi extends Api>(
	fields: RequiredFields<TApi> & Partial<Model<TApi>>,
	overrides: Partial<Model<TApi>> = {},
): Model<TApi> {
	return {
		reasoning: false,
		input: ["text", "image"],
		// $ per million tokens: round numbers keep cost assertions readable.
		cost: { input: 2, output: 8, cacheRead: 0.5, cacheWrite: 0 },
		contextWindow: 128_000,
		maxTokens: 16_384,
		...fields,
		...overrides,
	};
}
