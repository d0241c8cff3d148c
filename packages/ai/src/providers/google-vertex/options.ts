import type { GoogleOptions } from "../google-generative-ai/options.js";

/** Options of the google-vertex API: the Gemini options plus where and as whom to call Vertex AI. */
export interface GoogleVertexOptions extends GoogleOptions {
	/** Google Cloud project; default GOOGLE_CLOUD_PROJECT, then GCLOUD_PROJECT. */
	project?: string;
	/** Region such as "us-central1", or "global"; default GOOGLE_CLOUD_LOCATION. */
	location?: string;
	/**
	 * An OAuth access token (or a function returning one, called once per attempt), sent as
	 * `Authorization: Bearer`. Without it and without an API key, Application Default Credentials
	 * are used through the optional `google-auth-library` package (Node only).
	 */
	accessToken?: string | (() => string | Promise<string>);
}
