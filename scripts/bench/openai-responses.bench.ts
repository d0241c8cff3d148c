// openai-responses (Keel's own fetch + SSE reader) against the local wire-test server, each row next to
// the floor (raw fetch + SSE split + JSON.parse of the same body in the same run).
import { streamOpenAIResponses } from "../../packages/ai/src/providers/openai-responses/index.js";
import { assertStreamSucceeded, benchModel, runProviderWireBench, toolArgumentDeltas } from "./provider-wire.js";

const model = (baseUrl: string) => benchModel("openai-responses", baseUrl);

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

export function textBody(deltas: number): string {
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

export function toolBody(argumentBytes: number): string {
	const { argumentsText, deltas } = toolArgumentDeltas(argumentBytes);
	const item = { type: "function_call", id: "fc_bench", call_id: "call_bench", name: "write", arguments: "" };
	const parts = [
		event({ type: "response.created", response: response("in_progress") }),
		event({ type: "response.output_item.added", output_index: 0, item }),
	];
	for (const delta of deltas) {
		parts.push(event({ type: "response.function_call_arguments.delta", output_index: 0, item_id: "fc_bench", delta }));
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
	await runProviderWireBench({
		path: "/responses",
		textBody,
		toolBody,
		provider: async (server) => {
			assertStreamSucceeded(
				await streamOpenAIResponses(model(server.url), { messages: [] }, { apiKey: "bench" }).result(),
			);
		},
	});
}
