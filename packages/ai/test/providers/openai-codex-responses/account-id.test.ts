import { describe, expect, it } from "vitest";
import { readChatGPTAccountId } from "../../../src/providers/openai-codex-responses/account-id.js";
import { ACCOUNT_ID, codexToken, TOKEN } from "./fixtures.js";

describe("the ChatGPT account id from an access token's claims", () => {
	it("reads https://api.openai.com/auth → chatgpt_account_id from the JWT payload", () => {
		expect(readChatGPTAccountId(TOKEN)).toBe(ACCOUNT_ID);
	});

	it("decodes base64url payloads with multi-byte characters", () => {
		const token = codexToken({ name: "Zoë ✓", "https://api.openai.com/auth": { chatgpt_account_id: "acct-é" } });
		expect(readChatGPTAccountId(token)).toBe("acct-é");
	});

	it("says a token that is not a JWT is not one, without quoting it", () => {
		const secret = "sk-not-a-jwt-SECRET-123456";
		expect(() => readChatGPTAccountId(secret)).toThrow(
			/The OpenAI Codex access token is not a JWT \(expected three dot-separated parts, got 1\): pass the ChatGPT access token/,
		);
		try {
			readChatGPTAccountId(secret);
		} catch (error) {
			expect(String((error as Error).message)).not.toContain("SECRET");
		}
	});

	it("says which claim is missing", () => {
		expect(() => readChatGPTAccountId(codexToken({ sub: "user-1" }))).toThrow(
			'The OpenAI Codex access token has no ChatGPT account id (claim "https://api.openai.com/auth".chatgpt_account_id)',
		);
	});

	it("says a payload that is not JSON is not", () => {
		expect(() => readChatGPTAccountId("aaa.%%%.ccc")).toThrow("payload is not base64url-encoded JSON");
		expect(() => readChatGPTAccountId("aaa.bm90IGpzb24.ccc")).toThrow("payload is not base64url-encoded JSON");
	});
});
