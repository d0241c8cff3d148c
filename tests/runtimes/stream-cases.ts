// One streaming call per implemented wire API, written once and run unchanged in every JavaScript
// runtime under test (Node, headless Chromium, workerd). It uses only `@keel/ai` and what a browser
// or a Worker has, and sums the stream up as JSON so that the Node test can check it the same way
// whichever runtime produced it.
import { type Api, type Context, defineModel, type Model, stream, Type } from "@keel/ai";

export const RUNTIME_APIS = [
	"anthropic-messages",
	"openai-completions",
	"openai-responses",
	"azure-openai-responses",
	"mistral-conversations",
	"google-generative-ai",
	"google-vertex",
	"openai-codex-responses",
	"bedrock-converse-stream",
] as const;

export type RuntimeApi = (typeof RUNTIME_APIS)[number];

/** The base URL of the wire-test server that plays each API's answer. */
export type ServerUrls = Record<RuntimeApi, string>;

/** What one stream did, in a form that crosses a process or page boundary as JSON. */
export interface StreamSummary {
	api: RuntimeApi;
	eventTypes: string[];
	text: string;
	toolCalls: { name: string; arguments: Record<string, unknown> }[];
	usage: { input: number; output: number; totalTokens: number };
	stopReason: string;
	/** The error event's message when the stream failed. */
	errorMessage?: string;
	/** Set only if `stream()` broke its contract and threw. */
	thrown?: string;
}

/** Not a real key: the wire-test server accepts anything, and the key must not leak anywhere. */
export const RUNTIME_TEST_KEY = "runtime-test-key-not-secret";

/** SigV4 credentials for Bedrock, given explicitly as a browser or a Worker must; checked by the test. */
export const RUNTIME_AWS_ACCESS_KEY_ID = "AKIDRUNTIMETEST00000";
export const RUNTIME_AWS_SECRET_ACCESS_KEY = "runtime-test-key-not-secret-aws";

const context: Context = {
	systemPrompt: "Answer briefly.",
	messages: [{ role: "user", content: "What is the weather in Zürich?", timestamp: 0 }],
	tools: [
		{
			name: "get_weather",
			description: "The current weather in a city",
			parameters: Type.Object({ city: Type.String() }),
		},
	],
};

/** A model for the API, served by the wire-test server at `serverUrl`, as a user defines one. */
function modelFor(api: RuntimeApi, serverUrl: string): Model<Api> {
	switch (api) {
		case "anthropic-messages":
			return defineModel({ api, id: "claude-runtime-test", baseUrl: serverUrl });
		case "openai-completions":
			return defineModel({ api, id: "gpt-runtime-test", baseUrl: `${serverUrl}/v1` });
		case "openai-responses":
			return defineModel({ api, id: "gpt-runtime-test", baseUrl: `${serverUrl}/v1` });
		case "azure-openai-responses":
			// An Azure OpenAI v1 endpoint: https://<resource>.openai.azure.com/openai/v1
			return defineModel({ api, id: "gpt-runtime-test", baseUrl: `${serverUrl}/openai/v1` });
		case "mistral-conversations":
			// Mistral's base URL is the host; the provider posts to /v1/chat/completions below it.
			return defineModel({ api, id: "mistral-runtime-test", baseUrl: serverUrl });
		case "google-generative-ai":
			// The Gemini API: https://generativelanguage.googleapis.com/v1beta
			return defineModel({ api, id: "gemini-runtime-test", baseUrl: `${serverUrl}/v1beta` });
		case "google-vertex":
			// Vertex AI in express mode (an API key, no project): https://aiplatform.googleapis.com
			return defineModel({ api, id: "gemini-runtime-test", baseUrl: serverUrl });
		case "openai-codex-responses":
			// ChatGPT's Codex endpoint: https://chatgpt.com/backend-api, posted to below /codex/responses
			return defineModel({ api, id: "gpt-runtime-test", baseUrl: `${serverUrl}/backend-api` });
		case "bedrock-converse-stream":
			// Bedrock's endpoint is https://bedrock-runtime.<region>.amazonaws.com; any other base URL is used as it is.
			return defineModel({ api, id: "anthropic.claude-runtime-test-v1:0", baseUrl: serverUrl });
	}
}

/** The options a user passes, including each provider's opt-in for calls made from a browser. */
function optionsFor(api: RuntimeApi) {
	// Anthropic answers a browser's cross-origin request only when this header says the caller
	// accepts that its key is exposed to the page.
	// @see https://docs.anthropic.com/en/api/client-sdks#browser-support
	const headers: Record<string, string> =
		api === "anthropic-messages" ? { "anthropic-dangerous-direct-browser-access": "true" } : {};
	// Codex reads the account id from the access token's claims; the test key is not a JWT, so the
	// account is given.
	const codex = api === "openai-codex-responses" ? { accountId: "acct-runtime-test" } : {};
	// Bedrock signs with SigV4 from explicit credentials (an apiKey would be sent as a Bedrock API key).
	if (api === "bedrock-converse-stream") {
		const credentials = { accessKeyId: RUNTIME_AWS_ACCESS_KEY_ID, secretAccessKey: RUNTIME_AWS_SECRET_ACCESS_KEY };
		return { ...credentials, region: "eu-west-1", headers, maxRetries: 0, timeoutMs: 20_000 };
	}
	return { apiKey: RUNTIME_TEST_KEY, headers, maxRetries: 0, timeoutMs: 20_000, ...codex };
}

/** Streams the fixture prompt through the registry (`stream` of the root `@keel/ai`) and sums it up. */
export async function runStreamCase(api: RuntimeApi, serverUrl: string): Promise<StreamSummary> {
	const summary: StreamSummary = {
		api,
		eventTypes: [],
		text: "",
		toolCalls: [],
		usage: { input: 0, output: 0, totalTokens: 0 },
		stopReason: "",
	};
	try {
		const events = stream(modelFor(api, serverUrl), context, optionsFor(api));
		for await (const event of events) summary.eventTypes.push(event.type);
		const message = await events.result();
		for (const block of message.content) {
			if (block.type === "text") summary.text += block.text;
			if (block.type === "toolCall") summary.toolCalls.push({ name: block.name, arguments: block.arguments });
		}
		const { input, output, totalTokens } = message.usage;
		summary.usage = { input, output, totalTokens };
		summary.stopReason = message.stopReason;
		if (message.errorMessage) summary.errorMessage = message.errorMessage;
	} catch (error) {
		summary.thrown = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
	}
	return summary;
}

/** Every API's case, one after the other. */
export async function runStreamCases(urls: ServerUrls): Promise<StreamSummary[]> {
	const summaries: StreamSummary[] = [];
	for (const api of RUNTIME_APIS) summaries.push(await runStreamCase(api, urls[api]));
	return summaries;
}
