import { encodeOrFail, type ProviderAttempt } from "../../call/provider-attempt.js";
import type { Context } from "../../types.js";
import { mergeHeaders } from "../../wire/headers.js";
import { encodeGeminiRequest } from "../google-generative-ai/encode.js";
import { runGeminiRequest } from "../google-generative-ai/transport.js";
import { vertexAccessToken, vertexApiKey } from "./credentials.js";
import type { GoogleVertexOptions } from "./options.js";
import { resolveVertexTarget, type VertexTarget } from "./resolve-vertex-target.js";

/**
 * A cache's full Vertex resource name: `cachedContents/{id}` is completed with the call's project
 * and location (Vertex names caches `projects/{project}/locations/{location}/cachedContents/{id}`);
 * a full name, or a call without a project (express mode), is sent as it is.
 * @see https://cloud.google.com/vertex-ai/generative-ai/docs/context-cache/context-cache-use
 */
function vertexCacheName(name: string, target: VertexTarget): string {
	if (!name.startsWith("cachedContents/") || !target.project || !target.location) return name;
	return `projects/${target.project}/locations/${target.location}/${name}`;
}

/**
 * One attempt: the Gemini wire format at Vertex AI's streamGenerateContent URL, with an API key
 * (`x-goog-api-key`, express mode) or an OAuth bearer token.
 */
export async function runVertexAttempt(
	attempt: ProviderAttempt<"google-vertex">,
	context: Context,
	options: GoogleVertexOptions,
): Promise<void> {
	const { model } = attempt;
	const usesOAuth = options.accessToken !== undefined || options.credentials !== undefined;
	const apiKey = usesOAuth ? undefined : vertexApiKey(attempt.apiKey);
	const target = resolveVertexTarget(model, options, apiKey !== undefined);
	const body = encodeOrFail(() => encodeGeminiRequest(model, context, options));
	if (body.cachedContent !== undefined) body.cachedContent = vertexCacheName(body.cachedContent, target);
	if (options.streamFunctionCallArguments === true && body.tools) {
		body.toolConfig = {
			functionCallingConfig: { ...body.toolConfig?.functionCallingConfig, streamFunctionCallArguments: true },
		};
	}
	const credential: Record<string, string> = apiKey
		? { "x-goog-api-key": apiKey }
		: { authorization: `Bearer ${await vertexAccessToken(options, (secret) => attempt.builder.addSecret(secret))}` };
	await runGeminiRequest(attempt, {
		label: "Vertex AI",
		url: target.url,
		headers: mergeHeaders(credential, model.headers, options.headers),
		body,
	});
}
