import type { Model } from "../../../src/types.js";

/** A Bedrock model row pointing at a local server. */
export function bedrockModel(
	overrides: Partial<Model<"bedrock-converse-stream">> = {},
): Model<"bedrock-converse-stream"> {
	return {
		id: "anthropic.claude-sonnet-4-20250514-v1:0",
		name: "Claude Sonnet 4 (Bedrock)",
		api: "bedrock-converse-stream",
		provider: "amazon-bedrock",
		baseUrl: "http://127.0.0.1:1",
		reasoning: true,
		input: ["text", "image"],
		cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
		contextWindow: 200000,
		maxTokens: 64000,
		...overrides,
	};
}

/** SigV4 credentials for the SDK's environment provider; nothing leaves 127.0.0.1. */
export const TEST_ACCESS_KEY_ID = "AKIDTESTKEEL0000000";
export const TEST_SECRET_ACCESS_KEY = "test-secret-access-key-keel-0123456789";
