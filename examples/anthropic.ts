// Claude through @keel/ai: streams one answer with a tool and adaptive/budget thinking.
//
//   ANTHROPIC_API_KEY=sk-ant-... node --import tsx examples/anthropic.ts
//
// (Run `npx -y pnpm@10.34.9 run build` once first: the example imports the built @keel/ai.)
// A failed call prints its error on stderr and the process exits with 1.
// Without a key the same code runs against a local replay of a recorded Anthropic stream, so
// you can see the events offline; set ANTHROPIC_API_KEY (or ANTHROPIC_OAUTH_TOKEN) to talk to Claude.
import { type Context, getModel, streamSimple, Type } from "@keel/ai";
import { formatSse, WireTestServer } from "@keel/ai/testing";

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

const hasKey = Boolean(process.env.ANTHROPIC_API_KEY || process.env.ANTHROPIC_OAUTH_TOKEN);
let replay: WireTestServer | undefined;
let model = getModel("anthropic", "claude-sonnet-4-6");

if (!hasKey) {
	console.log("No ANTHROPIC_API_KEY set: replaying a recorded stream from a local server instead.\n");
	replay = await startReplay();
	model = { ...model, baseUrl: replay.url };
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

/** A local server that answers like the Messages API: thinking, then a streamed tool call. */
async function startReplay(): Promise<WireTestServer> {
	const server = await WireTestServer.start();
	const event = (data: { type: string } & Record<string, unknown>) => ({ event: data.type, data });
	const body = formatSse([
		event({
			type: "message_start",
			message: {
				id: "msg_replay",
				type: "message",
				role: "assistant",
				model: "claude-sonnet-4-6",
				content: [],
				stop_reason: null,
				usage: { input_tokens: 412, output_tokens: 1 },
			},
		}),
		event({ type: "content_block_start", index: 0, content_block: { type: "thinking", thinking: "", signature: "" } }),
		event({
			type: "content_block_delta",
			index: 0,
			delta: { type: "thinking_delta", thinking: "The user wants weather; call the tool." },
		}),
		event({ type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature: "replay-signature" } }),
		event({ type: "content_block_stop", index: 0 }),
		event({
			type: "content_block_start",
			index: 1,
			content_block: { type: "tool_use", id: "toolu_replay", name: "get_weather", input: {} },
		}),
		event({ type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: '{"city": "Zü' } }),
		event({ type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: 'rich"}' } }),
		event({ type: "content_block_stop", index: 1 }),
		event({
			type: "message_delta",
			delta: { stop_reason: "tool_use", stop_sequence: null },
			usage: { output_tokens: 58 },
		}),
		event({ type: "message_stop" }),
	]);
	server.enqueue({ body });
	return server;
}
