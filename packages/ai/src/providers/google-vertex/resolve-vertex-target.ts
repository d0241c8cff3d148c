// Where a Vertex AI request goes. The catalogue's base URL holds a `{location}` placeholder
// (`https://{location}-aiplatform.googleapis.com`); the global location has no regional host.
// @see https://cloud.google.com/vertex-ai/generative-ai/docs/reference/rest/v1/projects.locations.publishers.models/streamGenerateContent
// @see https://cloud.google.com/vertex-ai/generative-ai/docs/start/express-mode/overview

import { NonRetryableError } from "../../call/provider-attempt.js";
import type { Model } from "../../types.js";
import { environmentVariable } from "../../wire/environment.js";
import { endpointUrl } from "../../wire/http-transport.js";
import { requireBaseUrl } from "../../wire/require-base-url.js";
import type { GoogleVertexOptions } from "./options.js";

const LOCATION_PLACEHOLDER = "{location}";

export interface VertexTarget {
	url: string;
	project?: string;
	location?: string;
}

function resolveBaseUrl(model: Model<"google-vertex">, location: string | undefined): string {
	const baseUrl = model.baseUrl ?? "";
	if (!baseUrl.includes(LOCATION_PLACEHOLDER)) return requireBaseUrl(model);
	const where = location ?? "global";
	if (!/^[a-z0-9-]+$/.test(where)) {
		throw new NonRetryableError(
			`Vertex AI location ${JSON.stringify(where)} is not a region name such as "us-central1" or "global"`,
		);
	}
	// The global endpoint is aiplatform.googleapis.com, without a region prefix.
	const filled = where === "global" ? baseUrl.replace(`${LOCATION_PLACEHOLDER}-`, "") : baseUrl;
	return requireBaseUrl(model, filled.replaceAll(LOCATION_PLACEHOLDER, where));
}

/**
 * The streamGenerateContent URL. With OAuth credentials a project and a location are required
 * (options, then GOOGLE_CLOUD_PROJECT / GCLOUD_PROJECT and GOOGLE_CLOUD_LOCATION). An API key
 * (express mode) needs neither: without a project the request goes to the global publisher path.
 */
export function resolveVertexTarget(
	model: Model<"google-vertex">,
	options: GoogleVertexOptions,
	usesApiKey: boolean,
): VertexTarget {
	const project =
		options.project ?? environmentVariable("GOOGLE_CLOUD_PROJECT") ?? environmentVariable("GCLOUD_PROJECT");
	const location = options.location ?? environmentVariable("GOOGLE_CLOUD_LOCATION");
	const method = `/models/${encodeURIComponent(model.id)}:streamGenerateContent`;
	if (usesApiKey && project === undefined) {
		return {
			url: endpointUrl(resolveBaseUrl(model, location), `/v1/publishers/google${method}`, { alt: "sse" }),
			location,
		};
	}
	if (project === undefined || location === undefined) {
		const missing = [
			project === undefined ? "a project (options.project or GOOGLE_CLOUD_PROJECT)" : undefined,
			location === undefined
				? "a location (options.location or GOOGLE_CLOUD_LOCATION, e.g. us-central1 or global)"
				: undefined,
		].filter(Boolean);
		throw new NonRetryableError(
			`Vertex AI needs ${missing.join(" and ")} for model "${model.id}", or an API key (GOOGLE_CLOUD_API_KEY or options.apiKey) for express mode; nothing was sent`,
		);
	}
	const path = `/v1/projects/${encodeURIComponent(project)}/locations/${encodeURIComponent(location)}/publishers/google${method}`;
	return { url: endpointUrl(resolveBaseUrl(model, location), path, { alt: "sse" }), project, location };
}
