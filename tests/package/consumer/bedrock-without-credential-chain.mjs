// Run by the packaging test in a project without @keel/ai's optional peer @aws-sdk/credential-providers:
// a Bedrock call with no credentials in the options or the environment needs the AWS credential
// chain, so it ends with one error event that says what to install (or what to pass), and nothing is sent.
import { stream } from "@keel/ai";

for (const name of ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_BEARER_TOKEN_BEDROCK", "AWS_PROFILE"]) {
	delete process.env[name];
}

const model = {
	id: "anthropic.claude-sonnet-4-6",
	name: "Claude on Bedrock",
	api: "bedrock-converse-stream",
	provider: "amazon-bedrock",
	baseUrl: "http://127.0.0.1:9",
	reasoning: false,
	input: ["text"],
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
	contextWindow: 200000,
	maxTokens: 1024,
};
const events = [];
for await (const event of stream(
	model,
	{ messages: [{ role: "user", content: "hi", timestamp: 0 }] },
	{ region: "us-east-1", maxRetries: 0 },
)) {
	events.push(
		event.type === "error" ? { type: event.type, errorMessage: event.error.errorMessage } : { type: event.type },
	);
}
console.log(JSON.stringify(events.at(-1)));
