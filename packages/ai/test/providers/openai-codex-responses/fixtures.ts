// Models, tokens and helpers for the openai-codex-responses tests.
import type { Model } from "../../../src/types.js";
import { testModel } from "../../helpers/models.js";

export const ACCOUNT_ID = "acct-test-0042";

function base64Url(text: string): string {
	return Buffer.from(text, "utf8").toString("base64url");
}

/** A JWT shaped like a ChatGPT access token (unsigned: the client does not verify it). */
export function codexToken(claims: Record<string, unknown> = defaultClaims()): string {
	return `${base64Url(JSON.stringify({ alg: "RS256", typ: "JWT" }))}.${base64Url(JSON.stringify(claims))}.signature-part-SECRET`;
}

export function defaultClaims(accountId = ACCOUNT_ID): Record<string, unknown> {
	return { sub: "user-1", "https://api.openai.com/auth": { chatgpt_account_id: accountId, chatgpt_plan_type: "plus" } };
}

export const TOKEN = codexToken();

export function codexModel(baseUrl: string, overrides: Partial<Model<"openai-codex-responses">> = {}) {
	return testModel<"openai-codex-responses">(
		{
			id: "gpt-5.2-codex",
			name: "GPT-5.2 Codex",
			api: "openai-codex-responses",
			provider: "openai-codex",
			baseUrl,
			reasoning: true,
			contextWindow: 272_000,
			maxTokens: 128_000,
			thinkingLevelMap: { off: "none", minimal: null, xhigh: "xhigh" },
		},
		overrides,
	);
}
