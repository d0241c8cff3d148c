// Chat Completions through @keel/ai, with a tool call and the vendor's reasoning, streamed.
//
//   node --import tsx examples/openai-completions.ts
//
// Uses the first key it finds: GROQ_API_KEY, OPENROUTER_API_KEY, DEEPSEEK_API_KEY or
// OPENAI_API_KEY (any catalogue vendor on openai-completions works the same way). Without a key it
// plays a scripted answer from a local wire-test server, so you can see the events offline.
// (Run `npx -y pnpm@10.34.9 run build` once first: the example imports the built @keel/ai.)
// A failed call prints its error on stderr and the process exits with 1.
import { type Context, getEnvApiKey, getModel, type Model, streamSimple, Type } from "@keel/ai";
import { WireTestServer } from "@keel/ai/testing";

const context: Context = {
	systemPrompt: "You are terse. Use the tool when asked about the weather.",
	messages: [{ role: "user", content: "What is the weather in Lisbon?", timestamp: Date.now() }],
	tools: [
		{
			name: "get_weather",
			description: "Current weather for a city",
			parameters: Type.Object({ city: Type.String() }),
		},
	],
};

function modelFromEnvironment(): Model | undefined {
	if (getEnvApiKey("groq")) return getModel("groq", "openai/gpt-oss-120b");
	if (getEnvApiKey("openrouter")) return getModel("openrouter", "openai/gpt-5-mini");
	if (getEnvApiKey("deepseek")) return getModel("deepseek", "deepseek-chat");
	// OpenAI's catalogue rows use the Responses API; the same model also speaks Chat Completions.
	if (getEnvApiKey("openai")) return { ...getModel("openai", "gpt-4.1-mini"), api: "openai-completions" };
	return undefined;
}

/** An offline stand-in: a local server that answers with a tool call in Chat Completions' SSE format. */
async function scriptedServer(): Promise<{ model: Model; server: WireTestServer }> {
	const server = await WireTestServer.start();
	const chunk = (delta: object, finish: string | null = null) =>
		`data: ${JSON.stringify({ id: "chatcmpl-demo", object: "chat.completion.chunk", created: 0, model: "demo", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
	server.enqueue({
		body: [
			chunk({ role: "assistant", reasoning_content: "The user wants weather; call the tool." }),
			chunk({
				tool_calls: [
					{ index: 0, id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"ci' } },
				],
			}),
			chunk({ tool_calls: [{ index: 0, function: { arguments: 'ty":"Lisbon"}' } }] }),
			chunk({}, "tool_calls"),
			`data: ${JSON.stringify({ id: "chatcmpl-demo", object: "chat.completion.chunk", created: 0, model: "demo", choices: [], usage: { prompt_tokens: 42, completion_tokens: 17, total_tokens: 59 } })}\n\n`,
			"data: [DONE]\n\n",
		],
	});
	const model: Model = {
		id: "demo",
		name: "Scripted demo",
		api: "openai-completions",
		provider: "openai",
		baseUrl: server.url,
		reasoning: true,
		input: ["text"],
		cost: { input: 1, output: 4, cacheRead: 0.1, cacheWrite: 0 },
		contextWindow: 128_000,
		maxTokens: 4096,
	};
	return { model, server };
}

const fromEnvironment = modelFromEnvironment();
const offline = fromEnvironment ? undefined : await scriptedServer();
const model = fromEnvironment ?? (offline as { model: Model }).model;
console.log(
	fromEnvironment
		? `Using ${model.provider}/${model.id}`
		: "No GROQ_API_KEY, OPENROUTER_API_KEY, DEEPSEEK_API_KEY or OPENAI_API_KEY set: playing a scripted reply.",
);

const stream = streamSimple(model, context, {
	reasoning: model.reasoning ? "low" : undefined,
	apiKey: offline ? "offline-demo" : undefined,
});
for await (const event of stream) {
	if (event.type === "thinking_delta") process.stdout.write(`\x1b[2m${event.delta}\x1b[0m`);
	if (event.type === "text_delta") process.stdout.write(event.delta);
	if (event.type === "toolcall_end")
		console.log(`\n→ ${event.toolCall.name}(${JSON.stringify(event.toolCall.arguments)})`);
}
const result = await stream.result();
await offline?.server.close();
// A failed call is not thrown: it ends with stopReason "error" or "aborted" and the reason in errorMessage.
if (result.stopReason === "error" || result.stopReason === "aborted") {
	console.error(`\n${result.stopReason}: ${result.errorMessage}`);
	process.exitCode = 1;
} else {
	console.log(`\nstop: ${result.stopReason}`);
	console.log(
		`tokens: ${result.usage.input} in, ${result.usage.cacheRead} cached, ${result.usage.output} out; $${result.usage.cost.total.toFixed(6)}`,
	);
}
