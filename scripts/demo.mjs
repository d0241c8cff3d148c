// Placeholder demo: streams a message through the core without any API key.
import { AssistantMessageBuilder, createAssistantMessageEventStream } from "@keel/ai";

const model = {
	id: "demo",
	name: "demo",
	api: "demo",
	provider: "demo",
	baseUrl: "",
	reasoning: false,
	input: ["text"],
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
	contextWindow: 1000,
	maxTokens: 100,
};
const stream = createAssistantMessageEventStream();
const builder = new AssistantMessageBuilder(model, (event) => stream.push(event));
const index = builder.startText();
for (const word of "Hello from Keel.".split(" ")) builder.appendText(index, `${word} `);
builder.finish("stop");
for await (const event of stream) console.log(event.type, "delta" in event ? JSON.stringify(event.delta) : "");
