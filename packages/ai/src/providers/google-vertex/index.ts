// The google-vertex provider: Gemini on Vertex AI. The wire format is the Gemini API's, so the
// encoder, decoder and error reading come from providers/google-generative-ai; this folder holds
// the URL (project, location, the global endpoint) and the credentials (API key or OAuth).

import {
	type ProviderDefinition,
	streamSimpleWithDefinition,
	streamWithDefinition,
} from "../../call/provider-definition.js";
import type { Context, Model, SimpleStreamOptions } from "../../types.js";
import type { AssistantMessageEventStream } from "../../utils/event-stream.js";
import { classifyGoogleError } from "../google-generative-ai/errors.js";
import { googleOptionsFromSimple } from "../google-generative-ai/index.js";
import type { GoogleVertexOptions } from "./options.js";
import { runVertexAttempt } from "./transport.js";

export type {
	GoogleAuthorizedUserCredentials,
	GoogleCredentials,
	GoogleServiceAccountCredentials,
} from "./google-credentials.js";
export type { GoogleVertexOptions } from "./options.js";
export { resolveVertexTarget } from "./resolve-vertex-target.js";

export type GoogleVertexSimpleOptions = SimpleStreamOptions &
	Pick<
		GoogleVertexOptions,
		| "project"
		| "location"
		| "accessToken"
		| "credentials"
		| "toolChoice"
		| "cachedContent"
		| "streamFunctionCallArguments"
	>;

export const googleVertexProvider: ProviderDefinition<"google-vertex", GoogleVertexOptions> = {
	api: "google-vertex",
	simpleOptions: (model, options) => {
		const vertex = options as GoogleVertexSimpleOptions | undefined;
		return {
			...googleOptionsFromSimple(model, vertex),
			project: vertex?.project,
			location: vertex?.location,
			accessToken: vertex?.accessToken,
			credentials: vertex?.credentials,
			streamFunctionCallArguments: vertex?.streamFunctionCallArguments,
		};
	},
	// Without a key the call uses an OAuth token (options.accessToken, options.credentials or Application Default Credentials).
	requiresApiKey: () => false,
	classifyError: classifyGoogleError,
	runAttempt: runVertexAttempt,
};

/** Streams one Gemini response from Vertex AI. Never throws; see StreamFunction. */
export function streamGoogleVertex(
	model: Model<"google-vertex">,
	context: Context,
	options?: GoogleVertexOptions,
): AssistantMessageEventStream {
	return streamWithDefinition(googleVertexProvider, model, context, options);
}

/** Streams one Gemini response from Vertex AI with unified options. Never throws; see StreamFunction. */
export function streamSimpleGoogleVertex(
	model: Model<"google-vertex">,
	context: Context,
	options?: GoogleVertexSimpleOptions,
): AssistantMessageEventStream {
	return streamSimpleWithDefinition(googleVertexProvider, model, context, options);
}
