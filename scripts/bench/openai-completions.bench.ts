// openai-completions through the real openai SDK against the local wire-test server, each row next to
// the floor (raw fetch + SSE split + JSON.parse of the same body in the same run).
import { streamOpenAICompletions } from "../../packages/ai/src/providers/openai-completions/index.js";
import { createOpenAICompletionsClient } from "../../packages/ai/src/providers/openai-completions/transport.js";
import { WireTestServer } from "../../packages/ai/src/testing/wire-test-server.js";
import type { Model } from "../../packages/ai/src/types.js";
import { medianMs, printTable, sseFloorMs } from "./measure.js";

const model = (baseUrl: string): Model<"openai-completions"> => ({
	id: "bench-model",
	name: "Bench",
	api: "openai-completions",
	provider: "openai",
	baseUrl,
	reasoning: false,
	input: ["text"],
	cost: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 },
	contextWindow: 1_000_000,
	maxTokens: 100_000,
});

function chunkLine(delta: Record<string, unknown>, finish: string | null = null): string {
	const chunk = {
		id: "chatcmpl-bench",
		object: "chat.completion.chunk",
		created: 1,
		model: "bench-model",
		choices: [{ index: 0, delta, finish_reason: finish }],
	};
	return `data: ${JSON.stringify(chunk)}\n\n`;
}

function textBody(deltas: number): string {
	const parts = [chunkLine({ role: "assistant", content: "" })];
	for (let index = 0; index < deltas; index++) parts.push(chunkLine({ content: "word " }));
	parts.push(chunkLine({}, "stop"), "data: [DONE]\n\n");
	return parts.join("");
}

function toolBody(argumentBytes: number): string {
	// A JSON object whose one string value fills the requested size, sent in 64-byte deltas.
	const argumentsText = JSON.stringify({ content: "x".repeat(Math.max(0, argumentBytes - 14)) });
	const parts = [
		chunkLine({
			role: "assistant",
			tool_calls: [{ index: 0, id: "call_bench", type: "function", function: { name: "write", arguments: "" } }],
		}),
	];
	for (let offset = 0; offset < argumentsText.length; offset += 64) {
		parts.push(
			chunkLine({ tool_calls: [{ index: 0, function: { arguments: argumentsText.slice(offset, offset + 64) } }] }),
		);
	}
	parts.push(chunkLine({}, "tool_calls"), "data: [DONE]\n\n");
	return parts.join("");
}

// Other processes share the machine; a median over more runs keeps the ratios steadier.
const REPEAT = 9;

export default async function (): Promise<void> {
	const server = await WireTestServer.start();
	const rows: Record<string, string | number>[] = [];
	try {
		const cases = [
			{ name: "text, 20k deltas", body: textBody(20_000) },
			{ name: "tool args 16 KB / 64 B deltas", body: toolBody(16 * 1024) },
			{ name: "tool args 64 KB / 64 B deltas", body: toolBody(64 * 1024) },
			{ name: "tool args 256 KB / 64 B deltas", body: toolBody(256 * 1024) },
		];
		// Two passes, the first discarded: the JIT settles on the first pass (one warm-up run per
		// row is not enough for the 20k-delta case), and the rows are compared in a steady state.
		for (const { name, body } of [...cases, ...cases]) {
			const floor = await medianMs(async () => {
				server.enqueue({ body });
				await sseFloorMs(`${server.url}/chat/completions`, { method: "POST", body: "{}" });
			}, REPEAT);
			const provider = await medianMs(async () => {
				server.enqueue({ body });
				const result = await streamOpenAICompletions(model(server.url), { messages: [] }, { apiKey: "bench" }).result();
				if (result.stopReason === "error") throw new Error(`bench stream failed: ${result.errorMessage}`);
			}, REPEAT);
			// The SDK's own stream iterator with nothing done per chunk: what reading through it would cost.
			const client = createOpenAICompletionsClient(model(server.url), "bench", {
				baseUrl: server.url,
				headers: {},
				onErrorBody: () => {},
			});
			const bareSdk = await medianMs(async () => {
				server.enqueue({ body });
				const stream = await client.chat.completions.create({ model: "bench-model", messages: [], stream: true });
				for await (const _ of stream) {
					// drain
				}
			}, REPEAT);
			rows.push({
				case: name,
				"body KB": Math.round(body.length / 1024),
				"floor ms": floor,
				"provider ms": provider,
				"× floor": provider / floor,
				"bare SDK stream ms": bareSdk,
			});
		}
	} finally {
		await server.close();
	}
	printTable(rows.slice(rows.length / 2));
}
