// Every HTTP provider sends the request, and the caller's key with it, to the model's base URL. A
// model without one (a misspelled `baseURL`, a hand-written object) must stop with a clear error
// before anything is sent: guessing a public endpoint would hand the key to a server the caller
// never named. Catalogue rows and defineModel always set baseUrl.

import { NonRetryableError } from "../call/provider-attempt.js";
import type { Api, Model } from "../types.js";

type ModelIdentity = Pick<Model<Api>, "id" | "provider" | "api" | "baseUrl">;

/** An example in messages: a local server's URL, which shows the shape without naming a vendor. */
const EXAMPLE = "http://127.0.0.1:11434/v1";

/**
 * `baseUrl` when it is an absolute http(s) URL; otherwise throws a NonRetryableError naming the
 * model and the field. `field` names the value when it is not the model's own `baseUrl`.
 */
export function requireBaseUrl(model: ModelIdentity, baseUrl: unknown = model.baseUrl, field = "baseUrl"): string {
	if (baseUrl === undefined || baseUrl === null || (typeof baseUrl === "string" && baseUrl.trim() === "")) {
		const misspelled = findMisspelledBaseUrl(model);
		const hint = misspelled ? ` (it has "${misspelled}": the field is spelled baseUrl)` : "";
		throw new NonRetryableError(
			`Model "${model.id}" (provider "${model.provider}", api "${model.api}") has no ${field}${hint}: set it to the API's absolute http(s) URL, for example ${EXAMPLE}; nothing was sent`,
		);
	}
	const shown = typeof baseUrl === "string" ? JSON.stringify(baseUrl) : `of type ${typeof baseUrl}`;
	let url: URL | undefined;
	try {
		url = typeof baseUrl === "string" ? new URL(baseUrl.trim()) : undefined;
	} catch {
		url = undefined;
	}
	if (!url) {
		throw new NonRetryableError(
			`Model "${model.id}" has an invalid ${field} ${shown}: expected an absolute URL such as ${EXAMPLE}`,
		);
	}
	if (url.protocol !== "http:" && url.protocol !== "https:") {
		throw new NonRetryableError(
			`Model "${model.id}" has an invalid ${field} ${shown}: expected an http or https URL such as ${EXAMPLE}`,
		);
	}
	return (baseUrl as string).trim();
}

function findMisspelledBaseUrl(model: ModelIdentity): string | undefined {
	return Object.keys(model).find((key) => key !== "baseUrl" && key.toLowerCase().replace(/_/g, "") === "baseurl");
}
