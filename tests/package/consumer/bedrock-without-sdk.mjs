// Run by the packaging test in a project without the AWS SDK (an optional peer of @keel/ai): a
// Bedrock call ends with one error event that says what to install, and nothing is sent.
import { stream } from "@keel/ai";

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
	{ bearerToken: "b", region: "us-east-1" },
)) {
	events.push(
		event.type === "error" ? { type: event.type, errorMessage: event.error.errorMessage } : { type: event.type },
	);
}
console.log(JSON.stringify(events.at(-1)));
