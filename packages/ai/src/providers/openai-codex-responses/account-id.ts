import { NonRetryableError } from "../../call/provider-attempt.js";

// ChatGPT access tokens are JWTs whose payload carries the account under this claim.
const AUTH_CLAIM = "https://api.openai.com/auth";
const HOW_TO_FIX =
	"pass the ChatGPT access token you hold (a JWT) as options.apiKey or OPENAI_CODEX_ACCESS_TOKEN, or the account id as options.accountId";

/**
 * The ChatGPT account id from an access token's claims (`https://api.openai.com/auth` →
 * `chatgpt_account_id`). The token is only decoded, not verified: the server verifies it. Errors
 * say what is wrong with the token without quoting it.
 */
export function readChatGPTAccountId(token: string): string {
	const parts = token.split(".");
	if (parts.length !== 3 || parts[1] === "") {
		throw new NonRetryableError(
			`The OpenAI Codex access token is not a JWT (expected three dot-separated parts, got ${parts.length}): ${HOW_TO_FIX}`,
		);
	}
	let claims: unknown;
	try {
		claims = JSON.parse(decodeBase64Url(parts[1]));
	} catch {
		throw new NonRetryableError(`The OpenAI Codex access token's payload is not base64url-encoded JSON: ${HOW_TO_FIX}`);
	}
	const auth = (claims as Record<string, unknown> | null)?.[AUTH_CLAIM] as Record<string, unknown> | undefined;
	const accountId = auth?.chatgpt_account_id;
	if (typeof accountId !== "string" || accountId === "") {
		throw new NonRetryableError(
			`The OpenAI Codex access token has no ChatGPT account id (claim "${AUTH_CLAIM}".chatgpt_account_id): ${HOW_TO_FIX}`,
		);
	}
	return accountId;
}

/** base64url → UTF-8 text with platform APIs only (atob exists in Node, browsers and Workers). */
function decodeBase64Url(text: string): string {
	const base64 = text.replace(/-/g, "+").replace(/_/g, "/");
	const padded = base64 + "=".repeat((4 - (base64.length % 4)) % 4);
	const binary = atob(padded);
	const bytes = new Uint8Array(binary.length);
	for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
	return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
}
