// openai-responses through the real openai SDK against the local wire-test server, each row next to
// the floor (raw fetch + SSE split + JSON.parse of the same body in the same run).
import { streamOpenAIResponses } from "../../packages/ai/src/providers/openai-responses/index.js";
import { WireTestServer } from "../../packages/ai/src/testing/wire-test-server.js";
import type { Model } from "../../packages/ai/src/types.js";
import { medianMs, printTable, sseFloorMs } from "./measure.js";

const model = (baseUrl: string): Model<"openai-responses"> => ({
	id: "bench-model",
	name: "Bench",
	api: "openai-responses",
	provider: "openai",
	baseUrl,
	reasoning: false,
	input: ["text"],
	cost: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 },
	contextWindow: 1_000_000,
	maxTokens: 100_000,
});

let sequence = 0;
function event(data: Record<string, unknown> & { type: string }): string {
	return `event: ${data.type}\ndata: ${JSON.stringify({ ...data, sequence_number: sequence++ })}\n\n`;
}

const response = (status: string) => ({
	id: "resp_bench",
	object: "response",
	created_at: 0,
	model: "bench-model",
	status,
	output: [],
	usage:
		status === "completed"
			? {
					input_tokens: 10,
					input_tokens_details: { cached_tokens: 0 },
					output_tokens: 10,
					output_tokens_details: { reasoning_tokens: 0 },
					total_tokens: 20,
				}
			: null,
});

function textBody(deltas: number): string {
	const item = { type: "message", id: "msg_bench", role: "assistant", status: "in_progress", content: [] };
	const parts = [
		event({ type: "response.created", response: response("in_progress") }),
		event({ type: "response.output_item.added", output_index: 0, item }),
	];
	for (let index = 0; index < deltas; index++) {
		parts.push(
			event({
				type: "response.output_text.delta",
				output_index: 0,
				item_id: "msg_bench",
				content_index: 0,
				delta: "word ",
				logprobs: [],
			}),
		);
	}
	const text = "word ".repeat(deltas);
	parts.push(
		event({
			type: "response.output_item.done",
			output_index: 0,
			item: { ...item, status: "completed", content: [{ type: "output_text", text, annotations: [] }] },
		}),
		event({ type: "response.completed", response: response("completed") }),
	);
	return parts.join("");
}

function toolBody(argumentBytes: number): string {
	// A JSON object whose one string value fills the requested size, sent in 64-byte deltas.
	const argumentsText = JSON.stringify({ content: "x".repeat(Math.max(0, argumentBytes - 14)) });
	const item = { type: "function_call", id: "fc_bench", call_id: "call_bench", name: "write", arguments: "" };
	const parts = [
		event({ type: "response.created", response: response("in_progress") }),
		event({ type: "response.output_item.added", output_index: 0, item }),
	];
	for (let offset = 0; offset < argumentsText.length; offset += 64) {
		parts.push(
			event({
				type: "response.function_call_arguments.delta",
				output_index: 0,
				item_id: "fc_bench",
				delta: argumentsText.slice(offset, offset + 64),
			}),
		);
	}
	parts.push(
		event({
			type: "response.function_call_arguments.done",
			output_index: 0,
			item_id: "fc_bench",
			arguments: argumentsText,
		}),
		event({ type: "response.output_item.done", output_index: 0, item: { ...item, arguments: argumentsText } }),
		event({ type: "response.completed", response: response("completed") }),
	);
	return parts.join("");
}

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
		for (const { name, body } of cases) {
			const floor = await medianMs(async () => {
				server.enqueue({ body });
				await sseFloorMs(`${server.url}/responses`, { method: "POST", body: "{}" });
			});
			const provider = await medianMs(async () => {
				server.enqueue({ body });
				const result = await streamOpenAIResponses(model(server.url), { messages: [] }, { apiKey: "bench" }).result();
				if (result.stopReason === "error") throw new Error(`bench stream failed: ${result.errorMessage}`);
			});
			rows.push({
				case: name,
				"body KB": Math.round(body.length / 1024),
				"floor ms": floor,
				"provider ms": provider,
				"× floor": provider / floor,
			});
		}
	} finally {
		await server.close();
	}
	printTable(rows);
}
