// Every provider's options types are importable from the package root, the Codex ones included.
import { describe, expectTypeOf, it } from "vitest";
import type { OpenAICodexResponsesOptions, OpenAICodexResponsesSimpleOptions } from "../src/index.js";

describe("the Codex provider's options from @keel/ai", () => {
	it("carry the Codex settings", () => {
		expectTypeOf<OpenAICodexResponsesOptions["accountId"]>().toEqualTypeOf<string | undefined>();
		expectTypeOf<OpenAICodexResponsesSimpleOptions["webSocketIdleTimeoutMs"]>().toEqualTypeOf<number | undefined>();
	});
});
