// The same app as one-provider-app.ts, with `getModel` from the root entry: the provider is a
// run-time argument there, so every provider's models are bundled.
import { getModel, stream } from "@keel/ai";

export async function ask(question: string, apiKey: string): Promise<string> {
	const model = getModel("anthropic", "claude-sonnet-4-6");
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
