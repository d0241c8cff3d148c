// The shape of the curated catalogue rows. api, baseUrl, compat and headers default to the
// provider's rule in scripts/generate-models/providers.ts; a row sets them only to differ.
import type { Api, ModelCost, ModelInput, OpenAICompletionsCompat, ThinkingLevelMap } from "../src/types.js";

export interface CuratedModel {
	provider: string;
	id: string;
	name: string;
	reasoning: boolean;
	input: ModelInput[];
	/** USD per million tokens. Subscription-only endpoints (Codex, Cloud Code Assist, Copilot) are 0. */
	cost: ModelCost;
	contextWindow: number;
	maxTokens: number;
	api?: Api;
	baseUrl?: string;
	compat?: OpenAICompletionsCompat;
	headers?: Record<string, string>;
	thinkingLevelMap?: ThinkingLevelMap;
	/** The public page the facts above come from. */
	source: string;
	/**
	 * Fields whose value contradicts every public catalogue that lists the model, each with the
	 * provider page that shows the curated value is right. The generator's tests fail on a
	 * contradiction without one, so a hand-written number cannot silently override a correct source.
	 */
	overrides?: Partial<Record<"name" | "reasoning" | "input" | "cost" | "contextWindow" | "maxTokens", string>>;
}

/**
 * A provider's announced retirement of some of its models. Rows of `providers` with one of `ids`
 * are dropped once `retiresOn` is before the catalogue's date, and marked deprecated before that.
 */
export interface ModelRetirement {
	providers: readonly string[];
	ids: readonly string[];
	/** YYYY-MM-DD: the first day requests fail. */
	retiresOn?: string;
	/** The provider's page says the model is no longer served but gives no date: always dropped. */
	withdrawn?: true;
	replacement?: string;
	/** The provider's deprecation page. */
	source: string;
}

/** A correction to a row that comes from a public catalogue. */
export interface CuratedPatch {
	provider: string;
	id: string;
	set: Partial<Pick<CuratedModel, "name" | "cost" | "contextWindow" | "maxTokens" | "reasoning" | "input">>;
	source: string;
}

/** USD per million tokens: input, output, cache read, cache write. */
export function price(input: number, output: number, cacheRead = 0, cacheWrite = 0): ModelCost {
	return { input, output, cacheRead, cacheWrite };
}

export const FREE: ModelCost = price(0, 0);
