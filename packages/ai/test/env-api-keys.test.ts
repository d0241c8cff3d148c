import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AMBIENT_CREDENTIALS, findEnvKeys, getEnvApiKey, missingApiKeyMessage } from "../src/env-api-keys.js";

// Every variable the lookup reads, blanked before each test so the machine's own environment
// (a developer's real keys, AWS profiles, gcloud files) cannot change a result.
const allVariables = [
	"ANTHROPIC_OAUTH_TOKEN",
	"ANTHROPIC_API_KEY",
	"COPILOT_GITHUB_TOKEN",
	"GH_TOKEN",
	"GITHUB_TOKEN",
	"OPENAI_API_KEY",
	"AZURE_OPENAI_API_KEY",
	"GEMINI_API_KEY",
	"GOOGLE_CLOUD_API_KEY",
	"GROQ_API_KEY",
	"CEREBRAS_API_KEY",
	"XAI_API_KEY",
	"OPENROUTER_API_KEY",
	"AI_GATEWAY_API_KEY",
	"ZAI_API_KEY",
	"MISTRAL_API_KEY",
	"MINIMAX_API_KEY",
	"MINIMAX_CN_API_KEY",
	"HF_TOKEN",
	"OPENCODE_API_KEY",
	"KIMI_API_KEY",
	"DEEPSEEK_API_KEY",
	"FIREWORKS_API_KEY",
	"MOONSHOT_API_KEY",
	"CLOUDFLARE_API_KEY",
	"XIAOMI_API_KEY",
	"AWS_PROFILE",
	"AWS_ACCESS_KEY_ID",
	"AWS_SECRET_ACCESS_KEY",
	"AWS_BEARER_TOKEN_BEDROCK",
	"AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
	"AWS_CONTAINER_CREDENTIALS_FULL_URI",
	"AWS_WEB_IDENTITY_TOKEN_FILE",
	"GOOGLE_APPLICATION_CREDENTIALS",
	"GOOGLE_CLOUD_PROJECT",
	"GCLOUD_PROJECT",
	"GOOGLE_CLOUD_LOCATION",
];

let home: string;

beforeEach(() => {
	for (const name of allVariables) vi.stubEnv(name, "");
	home = mkdtempSync(join(tmpdir(), "keel-env-"));
	vi.stubEnv("HOME", home);
	vi.stubEnv("USERPROFILE", "");
});

afterEach(() => {
	vi.unstubAllEnvs();
});

const singleVariable: [string, string][] = [
	["openai", "OPENAI_API_KEY"],
	["azure-openai-responses", "AZURE_OPENAI_API_KEY"],
	["google", "GEMINI_API_KEY"],
	["google-vertex", "GOOGLE_CLOUD_API_KEY"],
	["groq", "GROQ_API_KEY"],
	["cerebras", "CEREBRAS_API_KEY"],
	["xai", "XAI_API_KEY"],
	["openrouter", "OPENROUTER_API_KEY"],
	["vercel-ai-gateway", "AI_GATEWAY_API_KEY"],
	["zai", "ZAI_API_KEY"],
	["mistral", "MISTRAL_API_KEY"],
	["minimax", "MINIMAX_API_KEY"],
	["minimax-cn", "MINIMAX_CN_API_KEY"],
	["huggingface", "HF_TOKEN"],
	["opencode", "OPENCODE_API_KEY"],
	["opencode-go", "OPENCODE_API_KEY"],
	["kimi-coding", "KIMI_API_KEY"],
	["deepseek", "DEEPSEEK_API_KEY"],
	["fireworks", "FIREWORKS_API_KEY"],
	["moonshotai", "MOONSHOT_API_KEY"],
	["moonshotai-cn", "MOONSHOT_API_KEY"],
	["cloudflare-workers-ai", "CLOUDFLARE_API_KEY"],
	["cloudflare-ai-gateway", "CLOUDFLARE_API_KEY"],
	["xiaomi", "XIAOMI_API_KEY"],
];

describe("getEnvApiKey", () => {
	it.each(singleVariable)("%s reads %s", (provider, variable) => {
		expect(getEnvApiKey(provider)).toBeUndefined();
		vi.stubEnv(variable, `key-for-${provider}`);
		expect(getEnvApiKey(provider)).toBe(`key-for-${provider}`);
		expect(findEnvKeys(provider)).toEqual([variable]);
	});

	it("anthropic prefers ANTHROPIC_OAUTH_TOKEN over ANTHROPIC_API_KEY", () => {
		vi.stubEnv("ANTHROPIC_API_KEY", "api-key");
		expect(getEnvApiKey("anthropic")).toBe("api-key");
		vi.stubEnv("ANTHROPIC_OAUTH_TOKEN", "oauth");
		expect(getEnvApiKey("anthropic")).toBe("oauth");
		expect(findEnvKeys("anthropic")).toEqual(["ANTHROPIC_OAUTH_TOKEN", "ANTHROPIC_API_KEY"]);
	});

	it("github-copilot tries COPILOT_GITHUB_TOKEN, then GH_TOKEN, then GITHUB_TOKEN", () => {
		vi.stubEnv("GITHUB_TOKEN", "third");
		expect(getEnvApiKey("github-copilot")).toBe("third");
		vi.stubEnv("GH_TOKEN", "second");
		expect(getEnvApiKey("github-copilot")).toBe("second");
		vi.stubEnv("COPILOT_GITHUB_TOKEN", "first");
		expect(getEnvApiKey("github-copilot")).toBe("first");
	});

	it("treats an empty variable as unset", () => {
		vi.stubEnv("OPENAI_API_KEY", "");
		expect(getEnvApiKey("openai")).toBeUndefined();
	});

	it("has no variable for OAuth-only and unknown providers", () => {
		for (const provider of ["google-gemini-cli", "google-antigravity", "my-custom"]) {
			expect(findEnvKeys(provider)).toEqual([]);
			expect(getEnvApiKey(provider)).toBeUndefined();
		}
	});

	it("reads a ChatGPT access token the user holds for openai-codex", () => {
		vi.stubEnv("OPENAI_CODEX_ACCESS_TOKEN", "header.payload.signature");
		expect(findEnvKeys("openai-codex")).toEqual(["OPENAI_CODEX_ACCESS_TOKEN"]);
		expect(getEnvApiKey("openai-codex")).toBe("header.payload.signature");
	});

	it("returns a copy from findEnvKeys", () => {
		findEnvKeys("openai").push("MUTATED");
		expect(findEnvKeys("openai")).toEqual(["OPENAI_API_KEY"]);
	});
});

describe("ambient credentials", () => {
	it.each([
		"AWS_PROFILE",
		"AWS_BEARER_TOKEN_BEDROCK",
		"AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
		"AWS_CONTAINER_CREDENTIALS_FULL_URI",
		"AWS_WEB_IDENTITY_TOKEN_FILE",
	])("amazon-bedrock is authenticated by %s", (variable) => {
		expect(getEnvApiKey("amazon-bedrock")).toBeUndefined();
		vi.stubEnv(variable, "x");
		expect(getEnvApiKey("amazon-bedrock")).toBe(AMBIENT_CREDENTIALS);
	});

	it("amazon-bedrock needs both halves of the access key pair", () => {
		vi.stubEnv("AWS_ACCESS_KEY_ID", "id");
		expect(getEnvApiKey("amazon-bedrock")).toBeUndefined();
		vi.stubEnv("AWS_SECRET_ACCESS_KEY", "secret");
		expect(getEnvApiKey("amazon-bedrock")).toBe("<authenticated>");
	});

	it("google-vertex needs an ADC file, a project and a location", () => {
		const credentials = join(home, "adc.json");
		writeFileSync(credentials, "{}");
		vi.stubEnv("GOOGLE_APPLICATION_CREDENTIALS", credentials);
		vi.stubEnv("GOOGLE_CLOUD_PROJECT", "project");
		expect(getEnvApiKey("google-vertex")).toBeUndefined();
		vi.stubEnv("GOOGLE_CLOUD_LOCATION", "us-central1");
		expect(getEnvApiKey("google-vertex")).toBe(AMBIENT_CREDENTIALS);
		vi.stubEnv("GOOGLE_APPLICATION_CREDENTIALS", join(home, "missing.json"));
		expect(getEnvApiKey("google-vertex")).toBeUndefined();
	});

	it("google-vertex finds the default gcloud ADC file under HOME and accepts GCLOUD_PROJECT", () => {
		const directory = join(home, ".config", "gcloud");
		vi.stubEnv("GCLOUD_PROJECT", "project");
		vi.stubEnv("GOOGLE_CLOUD_LOCATION", "europe-west1");
		expect(getEnvApiKey("google-vertex")).toBeUndefined();
		mkdirSync(directory, { recursive: true });
		writeFileSync(join(directory, "application_default_credentials.json"), "{}");
		expect(getEnvApiKey("google-vertex")).toBe(AMBIENT_CREDENTIALS);
	});

	it("a Vertex API key wins over ambient credentials", () => {
		vi.stubEnv("GOOGLE_CLOUD_API_KEY", "vertex-key");
		expect(getEnvApiKey("google-vertex")).toBe("vertex-key");
	});
});

describe("missingApiKeyMessage", () => {
	it("names the provider and every variable to set", () => {
		expect(missingApiKeyMessage("anthropic")).toBe(
			'No API key for provider "anthropic": set ANTHROPIC_OAUTH_TOKEN or ANTHROPIC_API_KEY or pass options.apiKey',
		);
		expect(missingApiKeyMessage("openai")).toBe(
			'No API key for provider "openai": set OPENAI_API_KEY or pass options.apiKey',
		);
	});

	it("only suggests options.apiKey for providers without a variable", () => {
		expect(missingApiKeyMessage("my-custom")).toBe('No API key for provider "my-custom": pass options.apiKey');
	});

	it("names the caller's own remedy instead of options.apiKey when one is given", () => {
		expect(missingApiKeyMessage("openai", "give the Agent a getApiKey callback")).toBe(
			'No API key for provider "openai": set OPENAI_API_KEY or give the Agent a getApiKey callback',
		);
	});
});
