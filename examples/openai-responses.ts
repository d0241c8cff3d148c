// The OpenAI Responses API through @keel/ai: reasoning, a tool call, and a second turn that replays
// the encrypted reasoning, streamed.
//
//   node --import tsx examples/openai-responses.ts
//
// With OPENAI_API_KEY set it talks to OpenAI (gpt-5-mini). With AZURE_OPENAI_API_KEY plus
// AZURE_OPENAI_BASE_URL or AZURE_OPENAI_RESOURCE_NAME set (and optionally
// AZURE_OPENAI_DEPLOYMENT_NAME_MAP="gpt-5-mini=<your deployment>") it talks to your Azure deployment.
// Without either it plays a scripted answer from a local wire-test server, so you can see the
// events offline. (Run `npx -y pnpm@10.34.9 run build` once first: the example imports the built
// @keel/ai.) A failed call prints its error on stderr and the process exits with 1.
import { type AssistantMessage, type Context, getEnvApiKey, getModel, type Model, streamSimple, Type } from "@keel/ai";
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
	if (getEnvApiKey("openai")) return getModel("openai", "gpt-5-mini");
	const azureEndpoint = process.env.AZURE_OPENAI_BASE_URL || process.env.AZURE_OPENAI_RESOURCE_NAME;
	if (getEnvApiKey("azure-openai-responses") && azureEndpoint) return getModel("azure-openai-responses", "gpt-5-mini");
	return undefined;
}

let server: WireTestServer | undefined;
let model = modelFromEnvironment();
let apiKey: string | undefined;
if (!model) {
	console.log("No OPENAI_API_KEY (or Azure settings): playing a scripted answer from a local server.\n");
	server = await scriptedServer();
	model = { ...getModel("openai", "gpt-5-mini"), baseUrl: server.url };
	apiKey = "offline-demo";
}

const first = await run(model, context);
const toolCall = first.content.find((block) => block.type === "toolCall");
if (toolCall && first.stopReason === "toolUse") {
	// Answer the tool call and continue: the reasoning item (encrypted) goes back with the history.
	context.messages.push(first, {
		role: "toolResult",
		toolCallId: toolCall.id,
		toolName: toolCall.name,
		content: [{ type: "text", text: "Sunny, 24 °C" }],
		isError: false,
		timestamp: Date.now(),
	});
	await run(model, context);
}
await server?.close();

async function run(target: Model, turn: Context): Promise<AssistantMessage> {
	const stream = streamSimple(target, turn, { reasoning: "low", apiKey, sessionId: "example-session" });
	for await (const event of stream) {
		if (event.type === "thinking_delta" || event.type === "text_delta") process.stdout.write(event.delta);
		if (event.type === "thinking_end") process.stdout.write("\n---\n");
		if (event.type === "toolcall_end")
			console.log(`[tool call] ${event.toolCall.name}(${JSON.stringify(event.toolCall.arguments)})`);
	}
	const message = await stream.result();
	// A failed call is not thrown: it ends with stopReason "error" or "aborted" and the reason in errorMessage.
	if (message.stopReason === "error" || message.stopReason === "aborted") {
		console.error(`\n${message.stopReason}: ${message.errorMessage}`);
		process.exitCode = 1;
		return message;
	}
	const { usage } = message;
	console.log(`\nstop: ${message.stopReason}`);
	console.log(
		`tokens: ${usage.input} in (+${usage.cacheRead} cached), ${usage.output} out, $${usage.cost.total.toFixed(6)}\n`,
	);
	return message;
}

/** An offline stand-in: answers like the Responses API, first with reasoning and a tool call, then text. */
async function scriptedServer(): Promise<WireTestServer> {
	const local = await WireTestServer.start();
	let sequence = 0;
	const sse = (events: Record<string, unknown>[]) =>
		events
			.map((event) => `event: ${event.type}\ndata: ${JSON.stringify({ ...event, sequence_number: sequence++ })}\n\n`)
			.join("");
	const response = (status: string, output = 0) => ({
		id: "resp_demo",
		object: "response",
		model: "gpt-5-mini",
		status,
		usage: {
			input_tokens: 120,
			input_tokens_details: { cached_tokens: 0 },
			output_tokens: output,
			output_tokens_details: { reasoning_tokens: 16 },
			total_tokens: 120 + output,
		},
	});
	const reasoning = {
		type: "reasoning",
		id: "rs_demo",
		summary: [{ type: "summary_text", text: "The user wants weather; call the tool." }],
		encrypted_content: "gAAAA-demo-encrypted",
	};
	const call = { type: "function_call", id: "fc_demo", call_id: "call_demo", name: "get_weather", arguments: "" };
	const text = "It is sunny and 24 °C in Lisbon.";
	const message = { type: "message", id: "msg_demo", role: "assistant", status: "completed", phase: "final_answer" };
	local.enqueue(
		{
			body: sse([
				{ type: "response.created", response: response("in_progress") },
				{ type: "response.output_item.added", output_index: 0, item: { ...reasoning, summary: [] } },
				{ type: "response.reasoning_summary_part.added", output_index: 0, item_id: "rs_demo", summary_index: 0 },
				{
					type: "response.reasoning_summary_text.delta",
					output_index: 0,
					item_id: "rs_demo",
					summary_index: 0,
					delta: reasoning.summary[0].text,
				},
				{ type: "response.output_item.done", output_index: 0, item: reasoning },
				{ type: "response.output_item.added", output_index: 1, item: call },
				{ type: "response.function_call_arguments.delta", output_index: 1, item_id: "fc_demo", delta: '{"city":' },
				{ type: "response.function_call_arguments.delta", output_index: 1, item_id: "fc_demo", delta: '"Lisbon"}' },
				{ type: "response.output_item.done", output_index: 1, item: { ...call, arguments: '{"city":"Lisbon"}' } },
				{ type: "response.completed", response: response("completed", 40) },
			]),
		},
		{
			body: sse([
				{ type: "response.created", response: response("in_progress") },
				{ type: "response.output_item.added", output_index: 0, item: { ...message, content: [] } },
				{ type: "response.output_text.delta", output_index: 0, item_id: "msg_demo", content_index: 0, delta: text },
				{
					type: "response.output_item.done",
					output_index: 0,
					item: { ...message, content: [{ type: "output_text", text, annotations: [] }] },
				},
				{ type: "response.completed", response: response("completed", 12) },
			]),
		},
	);
	return local;
}
