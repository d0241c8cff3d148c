import type { GoogleOptions } from "../google-generative-ai/options.js";
import type { GoogleCredentials } from "./google-credentials.js";

/** Options of the google-vertex API: the Gemini options plus where and as whom to call Vertex AI. */
export interface GoogleVertexOptions extends GoogleOptions {
	/** Google Cloud project; default GOOGLE_CLOUD_PROJECT, then GCLOUD_PROJECT. */
	project?: string;
	/** Region such as "us-central1", or "global"; default GOOGLE_CLOUD_LOCATION. */
	location?: string;
	/**
	 * An OAuth access token (or a function returning one, called once per attempt), sent as
	 * `Authorization: Bearer`. Without it, an API key or `credentials`, Application Default
	 * Credentials are read from files (Node only): GOOGLE_APPLICATION_CREDENTIALS, else gcloud's.
	 */
	accessToken?: string | (() => string | Promise<string>);
	/**
	 * A service-account key or an authorized-user file's content (parsed JSON), exchanged for an
	 * access token at its `token_uri` (default https://oauth2.googleapis.com/token). Works
	 * wherever WebCrypto and fetch exist; takes precedence over an API key.
	 */
	credentials?: GoogleCredentials;
	/**
	 * Asks Vertex AI to stream each function call's arguments in pieces
	 * (`toolConfig.functionCallingConfig.streamFunctionCallArguments`), read as `toolcall_delta`
	 * events while the model writes them; sent only with tools. Off by default: not every model
	 * accepts it, and without it each call arrives whole.
	 * @see https://cloud.google.com/vertex-ai/generative-ai/docs/reference/rest/v1/Tool#FunctionCallingConfig
	 */
	streamFunctionCallArguments?: boolean;
}
