// A browser app that talks to one provider through that provider's own entry: `streamAnthropic`
// from `@keel/ai/anthropic` rather than `stream` from the root, so no other provider is bundled.
import { streamAnthropic } from "@keel/ai/anthropic";
import { getModel } from "@keel/ai/models/anthropic";

export async function ask(question: string, apiKey: string): Promise<string> {
	const model = getModel("claude-sonnet-4-6");
	let text = "";
	for await (const event of streamAnthropic(
		model,
		{ messages: [{ role: "user", content: question, timestamp: Date.now() }] },
		{ apiKey },
	)) {
		if (event.type === "text_delta") text += event.delta;
	}
	return text;
}
