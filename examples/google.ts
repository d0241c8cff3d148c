// Gemini through @keel/ai: streams one answer with a tool and thinking.
//
//   GEMINI_API_KEY=... node --import tsx examples/google.ts
//
// (Run `npx -y pnpm@10.34.9 run build` once first: the example imports the built @keel/ai.)
// A failed call prints its error on stderr and the process exits with 1.
// Without a key the same code runs against a local replay of a Gemini stream, so you can see the
// events offline. For Vertex AI use getModel("google-vertex", …) with GOOGLE_CLOUD_API_KEY, or a
// project and location with Application Default Credentials.
import { type Context, getModel, streamSimple, Type } from "@keel/ai";
import { WireTestServer } from "@keel/ai/testing";

const context: Context = {
	systemPrompt: "You are a concise assistant. Use the weather tool when asked about weather.",
	messages: [{ role: "user", content: "What's the weather in Zürich? Think briefly first.", timestamp: Date.now() }],
	tools: [
		{
			name: "get_weather",
			description: "Current weather for a city",
			parameters: Type.Object({ city: Type.String({ description: "City name" }) }),
		},
	],
};

const hasKey = Boolean(process.env.GEMINI_API_KEY);
let replay: WireTestServer | undefined;
let model = getModel("google", "gemini-2.5-flash");

if (!hasKey) {
	console.log("No GEMINI_API_KEY set: replaying a Gemini stream from a local server instead.\n");
	replay = await startReplay();
	model = { ...model, baseUrl: `${replay.url}/v1beta` };
}

const stream = streamSimple(model, context, {
	reasoning: "low",
	maxTokens: 1024,
	...(hasKey ? {} : { apiKey: "offline-replay" }),
});
for await (const event of stream) {
	if (event.type === "thinking_delta" || event.type === "text_delta") process.stdout.write(event.delta);
	if (event.type === "thinking_end") process.stdout.write("\n---\n");
	if (event.type === "toolcall_end")
		console.log(`\n[tool call] ${event.toolCall.name}(${JSON.stringify(event.toolCall.arguments)})`);
}
const message = await stream.result();
await replay?.close();
// A failed call (no key, HTTP error, timeout, abort) is not thrown: it ends the stream with stopReason
// "error" or "aborted" and the reason in errorMessage.
if (message.stopReason === "error" || message.stopReason === "aborted") {
	console.error(`\n${message.stopReason}: ${message.errorMessage}`);
	process.exitCode = 1;
} else {
	console.log(`\nstop: ${message.stopReason}`);
	console.log(
		`tokens: ${message.usage.input} in, ${message.usage.output} out, cost $${message.usage.cost.total.toFixed(6)}`,
	);
}

/** A local server that answers like the Gemini API (alt=sse, CRLF between events): a thought, then a call. */
async function startReplay(): Promise<WireTestServer> {
	const server = await WireTestServer.start();
	const chunk = (parts: Record<string, unknown>[], last = false) => ({
		candidates: [{ content: { role: "model", parts }, index: 0, ...(last ? { finishReason: "STOP" } : {}) }],
		...(last
			? {
					usageMetadata: { promptTokenCount: 52, candidatesTokenCount: 6, thoughtsTokenCount: 14, totalTokenCount: 72 },
				}
			: {}),
		modelVersion: "gemini-2.5-flash",
		responseId: "replay",
	});
	const chunks = [
		chunk([{ text: "The user wants the weather; call the tool.", thought: true }]),
		chunk([{ functionCall: { name: "get_weather", args: { city: "Zürich" } }, thoughtSignature: "cmVwbGF5" }], true),
	];
	server.enqueue({ body: chunks.map((data) => `data: ${JSON.stringify(data)}\r\n\r\n`).join("") });
	return server;
}
