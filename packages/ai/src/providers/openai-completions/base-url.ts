import { environmentVariables } from "../../wire/environment.js";

/**
 * Fills `{VARIABLE}` placeholders in a catalogue base URL from the environment (Cloudflare's
 * `…/accounts/{CLOUDFLARE_ACCOUNT_ID}/ai/v1`). Returns the URL, or a message naming what is
 * missing: an account id cannot be guessed, and sending the braces would only earn a 404.
 */
export function resolveBaseUrl(
	baseUrl: string,
	environment: Record<string, string | undefined> = environmentVariables(),
): { url: string } | { problem: string } {
	const missing: string[] = [];
	const url = baseUrl.replace(/\{([A-Z][A-Z0-9_]*)\}/g, (placeholder, name: string) => {
		const value = environment[name];
		if (value === undefined || value === "") {
			missing.push(name);
			return placeholder;
		}
		return encodeURIComponent(value);
	});
	if (missing.length > 0) {
		return {
			problem: `The base URL ${baseUrl} needs ${missing.join(" and ")}: set ${missing.length > 1 ? "them" : "it"} in the environment or give the model a complete baseUrl`,
		};
	}
	return { url };
}
