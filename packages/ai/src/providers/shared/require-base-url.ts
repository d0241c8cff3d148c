// Every HTTP provider sends the request, and the caller's key with it, to the model's base URL. A
// model without one (a misspelled `baseURL`, a hand-written object) must stop with a clear error
// before anything is sent: guessing a public endpoint would hand the key to a server the caller
// never named. Catalogue rows and defineModel always set baseUrl.
import type { Api, Model } from "../../types.js";
import { NonRetryableError } from "./provider-attempt.js";

type ModelIdentity = Pick<Model<Api>, "id" | "provider" | "api" | "baseUrl">;

/**
 * `baseUrl` when it is an absolute http(s) URL; otherwise throws a NonRetryableError naming the
 * model and the field. `field` names where the value came from when it is not `model.baseUrl`.
 */
export function requireBaseUrl(
	model: ModelIdentity,
	baseUrl: unknown = model.baseUrl,
	field = "model.baseUrl",
): string {
	const problem = findBaseUrlProblem(baseUrl);
	if (problem === undefined) return (baseUrl as string).trim();
	const misspelled = findMisspelledBaseUrl(model);
	const hint = misspelled ? ` (the model has "${misspelled}": the field is spelled baseUrl)` : "";
	throw new NonRetryableError(
		`Model "${model.id}" (provider "${model.provider}", api "${model.api}") has no usable base URL: ${field} ${problem}${hint}. Set it to the API's absolute http(s) URL, for example "https://api.openai.com/v1"; nothing was sent`,
	);
}

function findBaseUrlProblem(baseUrl: unknown): string | undefined {
	if (baseUrl === undefined || baseUrl === null) return `is ${String(baseUrl)}`;
	if (typeof baseUrl !== "string") return `is a ${typeof baseUrl}, not a string`;
	if (baseUrl.trim() === "") return "is empty";
	let url: URL;
	try {
		url = new URL(baseUrl.trim());
	} catch {
		return `${JSON.stringify(baseUrl)} is not an absolute URL`;
	}
	if (url.protocol !== "http:" && url.protocol !== "https:") return `${JSON.stringify(baseUrl)} is not http or https`;
	return undefined;
}

function findMisspelledBaseUrl(model: ModelIdentity): string | undefined {
	return Object.keys(model).find((key) => key !== "baseUrl" && key.toLowerCase().replace(/_/g, "") === "baseurl");
}
