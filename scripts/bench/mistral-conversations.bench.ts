// mistral-conversations (Keel's own fetch + SSE reader) against the local wire-test server, each row
// next to the floor (raw fetch + SSE split + JSON.parse of the same body in the same run). Mistral
// usually sends a tool call whole; the tool rows stream its arguments in 64-byte deltas anyway, to
// show that the time grows linearly with their size.
import { streamMistral } from "../../packages/ai/src/providers/mistral-conversations/index.js";
import { assertStreamSucceeded, benchModel, runProviderWireBench, toolArgumentDeltas } from "./provider-wire.js";

const model = (baseUrl: string) => benchModel("mistral-conversations", baseUrl, { provider: "mistral" });

function chunkLine(delta: Record<string, unknown>, finish: string | null = null): string {
	const chunk = {
		id: "cmpl-bench",
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
	parts.push(chunkLine({ content: "" }, "stop"), "data: [DONE]\n\n");
	return parts.join("");
}

function toolBody(argumentBytes: number): string {
	const [first, ...rest] = toolArgumentDeltas(argumentBytes).deltas;
	const parts = [
		chunkLine({
			role: "assistant",
			tool_calls: [{ id: "BenchCall", type: "function", index: 0, function: { name: "write", arguments: first } }],
		}),
	];
	for (const argumentsDelta of rest) {
		parts.push(chunkLine({ tool_calls: [{ index: 0, function: { arguments: argumentsDelta } }] }));
	}
	parts.push(chunkLine({ content: "" }, "tool_calls"), "data: [DONE]\n\n");
	return parts.join("");
}

export default async function (): Promise<void> {
	await runProviderWireBench({
		path: "/v1/chat/completions",
		textBody,
		toolBody,
		// Other processes share the machine; a median over more runs keeps the ratios steadier.
		repeat: 9,
		// The first pass is discarded so the rows are compared once the JIT has settled.
		passes: 2,
		provider: async (server) => {
			assertStreamSucceeded(await streamMistral(model(server.url), { messages: [] }, { apiKey: "bench" }).result());
		},
	});
}
