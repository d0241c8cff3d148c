// A browser app that talks to one provider: `stream` from the root entry and its models from
// `@keel/ai/models/anthropic`, as docs/models.md ("Keeping a browser bundle small") shows.
import { stream } from "./packages/ai/src/index.ts";
import { getModel } from "./packages/ai/src/models/by-provider/anthropic.ts";

export async function ask(question: string, apiKey: string): Promise<string> {
	const model = getModel("claude-sonnet-4-6");
	let text = "";
	for await (const event of stream(
		model,
		{ messages: [{ role: "user", content: question, timestamp: Date.now() }] },
		{ apiKey },
	)) {
		if (event.type === "text_delta") text += event.delta;
	}
	return text;
}
