import type { Provider } from "./types.js";

/** Returned for providers that authenticate with ambient credentials (AWS, Google ADC). */
export const AMBIENT_CREDENTIALS = "<authenticated>";

// Variables tried in order, per provider.
const providerKeyVariables: Readonly<Record<string, readonly string[]>> = {
	anthropic: ["ANTHROPIC_OAUTH_TOKEN", "ANTHROPIC_API_KEY"],
	"github-copilot": ["COPILOT_GITHUB_TOKEN", "GH_TOKEN", "GITHUB_TOKEN"],
	openai: ["OPENAI_API_KEY"],
	// A ChatGPT access token the user already holds (a JWT); Keel does not obtain one itself.
	"openai-codex": ["OPENAI_CODEX_ACCESS_TOKEN"],
	"azure-openai-responses": ["AZURE_OPENAI_API_KEY"],
	google: ["GEMINI_API_KEY"],
	"google-vertex": ["GOOGLE_CLOUD_API_KEY"],
	groq: ["GROQ_API_KEY"],
	cerebras: ["CEREBRAS_API_KEY"],
	xai: ["XAI_API_KEY"],
	openrouter: ["OPENROUTER_API_KEY"],
	"vercel-ai-gateway": ["AI_GATEWAY_API_KEY"],
	zai: ["ZAI_API_KEY"],
	mistral: ["MISTRAL_API_KEY"],
	minimax: ["MINIMAX_API_KEY"],
	"minimax-cn": ["MINIMAX_CN_API_KEY"],
	huggingface: ["HF_TOKEN"],
	opencode: ["OPENCODE_API_KEY"],
	"opencode-go": ["OPENCODE_API_KEY"],
	"kimi-coding": ["KIMI_API_KEY"],
	deepseek: ["DEEPSEEK_API_KEY"],
	fireworks: ["FIREWORKS_API_KEY"],
	moonshotai: ["MOONSHOT_API_KEY"],
	"moonshotai-cn": ["MOONSHOT_API_KEY"],
	"cloudflare-workers-ai": ["CLOUDFLARE_API_KEY"],
	"cloudflare-ai-gateway": ["CLOUDFLARE_API_KEY"],
	xiaomi: ["XIAOMI_API_KEY"],
	"xiaomi-token-plan-ams": ["XIAOMI_TOKEN_PLAN_AMS_API_KEY"],
	"xiaomi-token-plan-cn": ["XIAOMI_TOKEN_PLAN_CN_API_KEY"],
	"xiaomi-token-plan-sgp": ["XIAOMI_TOKEN_PLAN_SGP_API_KEY"],
	together: ["TOGETHER_API_KEY"],
	baseten: ["BASETEN_API_KEY"],
	nvidia: ["NVIDIA_API_KEY"],
	meta: ["META_API_KEY"],
	"qwen-token-plan": ["QWEN_TOKEN_PLAN_API_KEY"],
	"qwen-token-plan-cn": ["QWEN_TOKEN_PLAN_CN_API_KEY"],
	"qwen-token-plan-individual": ["QWEN_TOKEN_PLAN_API_KEY"],
	"qwen-token-plan-individual-cn": ["QWEN_TOKEN_PLAN_CN_API_KEY"],
	"zai-coding-cn": ["ZAI_CODING_CN_API_KEY"],
	"ant-ling": ["ANT_LING_API_KEY"],
};

const awsCredentialVariables = [
	"AWS_PROFILE",
	"AWS_BEARER_TOKEN_BEDROCK",
	"AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
	"AWS_CONTAINER_CREDENTIALS_FULL_URI",
	"AWS_WEB_IDENTITY_TOKEN_FILE",
] as const;

function env(name: string): string | undefined {
	const value = typeof process !== "undefined" ? process.env[name] : undefined;
	return value === undefined || value === "" ? undefined : value;
}

/** The environment variable names that may hold a key for this provider, in lookup order. */
export function findEnvKeys(provider: Provider): string[] {
	return [...(providerKeyVariables[provider] ?? [])];
}

/** Every provider with a key variable, and those found through ambient credentials (AWS, Google ADC). */
export function providersWithEnvironmentKeys(): string[] {
	return [...Object.keys(providerKeyVariables), "amazon-bedrock"].sort();
}

/** The name of the first variable that holds a key for this provider, or undefined. */
export function findEnvKeyVariable(provider: Provider): string | undefined {
	return findEnvKeys(provider).find((name) => env(name) !== undefined);
}

// Loaded through process.getBuiltinModule rather than a static import, so that browser bundles of
// @keel/ai do not pull in node:fs.
function fileExists(path: string): boolean {
	const nodeProcess = globalThis.process as
		| (NodeJS.Process & { getBuiltinModule?: (id: string) => unknown })
		| undefined;
	const fs = nodeProcess?.getBuiltinModule?.("node:fs") as typeof import("node:fs") | undefined;
	return fs ? fs.existsSync(path) : false;
}

function hasGoogleApplicationDefaultCredentials(): boolean {
	const explicit = env("GOOGLE_APPLICATION_CREDENTIALS");
	if (explicit) return fileExists(explicit);
	const home = env("HOME") ?? env("USERPROFILE");
	return home ? fileExists(`${home}/.config/gcloud/application_default_credentials.json`) : false;
}

/**
 * A provider's credential from the environment, or undefined. Providers that use ambient
 * credentials (Bedrock, Vertex with ADC) return the sentinel "<authenticated>".
 */
export function getEnvApiKey(provider: Provider): string | undefined {
	for (const name of findEnvKeys(provider)) {
		const value = env(name);
		if (value) return value;
	}
	if (provider === "amazon-bedrock") {
		const hasPair = env("AWS_ACCESS_KEY_ID") && env("AWS_SECRET_ACCESS_KEY");
		if (hasPair || awsCredentialVariables.some((name) => env(name))) return AMBIENT_CREDENTIALS;
	}
	if (provider === "google-vertex") {
		const project = env("GOOGLE_CLOUD_PROJECT") ?? env("GCLOUD_PROJECT");
		if (project && env("GOOGLE_CLOUD_LOCATION") && hasGoogleApplicationDefaultCredentials()) return AMBIENT_CREDENTIALS;
	}
	return undefined;
}

/**
 * The error text for a missing key: what failed and what to do. Never includes a secret. `remedy`
 * is the way in that the caller's context offers (an Agent's getApiKey, a command's flag); the
 * default speaks to a caller of stream() or complete().
 */
export function missingApiKeyMessage(provider: Provider, remedy = "pass options.apiKey"): string {
	const names = findEnvKeys(provider);
	const hint = names.length > 0 ? `set ${names.join(" or ")} or ${remedy}` : remedy;
	return `No API key for provider "${provider}": ${hint}`;
}
