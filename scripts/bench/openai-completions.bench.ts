// openai-completions (Keel's own fetch + SSE reader) against the local wire-test server, each row next
// to the floor (raw fetch + SSE split + JSON.parse of the same body in the same run) and the openai
// SDK's own stream iterator, the alternative Keel does not use.
import type OpenAISdk from "openai";
import { streamOpenAICompletions } from "../../packages/ai/src/providers/openai-completions/index.js";
import {
	assertStreamSucceeded,
	benchModel,
	importVendorSdk,
	runProviderWireBench,
	toolArgumentDeltas,
} from "./provider-wire.js";

const model = (baseUrl: string) => benchModel("openai-completions", baseUrl);

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
	const parts = [
		chunkLine({
			role: "assistant",
			tool_calls: [{ index: 0, id: "call_bench", type: "function", function: { name: "write", arguments: "" } }],
		}),
	];
	for (const argumentsDelta of toolArgumentDeltas(argumentBytes).deltas) {
		parts.push(chunkLine({ tool_calls: [{ index: 0, function: { arguments: argumentsDelta } }] }));
	}
	parts.push(chunkLine({}, "tool_calls"), "data: [DONE]\n\n");
	return parts.join("");
}

export default async function (): Promise<void> {
	const { default: OpenAI } = await importVendorSdk<{ default: typeof OpenAISdk }>("openai");
	await runProviderWireBench({
		path: "/chat/completions",
		textBody,
		toolBody,
		// Other processes share the machine; a median over more runs keeps the ratios steadier.
		repeat: 9,
		// The first pass is discarded: the JIT settles on it (one warm-up run per row is not enough
		// for the 20k-delta case), and the rows are compared in a steady state.
		passes: 2,
		provider: async (server) => {
			assertStreamSucceeded(
				await streamOpenAICompletions(model(server.url), { messages: [] }, { apiKey: "bench" }).result(),
			);
		},
		variants: (server) => {
			// The SDK's own stream iterator with nothing done per chunk: what reading through it would cost.
			const client = new OpenAI({ apiKey: "bench", baseURL: server.url, maxRetries: 0 });
			return {
				"bare SDK stream ms": async () => {
					const stream = await client.chat.completions.create({ model: "bench-model", messages: [], stream: true });
					for await (const _ of stream) {
						// drain
					}
				},
			};
		},
	});
}
