// google-generative-ai (Keel's own fetch + SSE reader, CRLF-separated Gemini chunks) against the
// local wire-test server, each row next to the floor (raw fetch + SSE split + JSON.parse of the same
// body in the same run). Gemini sends a function call's arguments whole, in one chunk, so the
// tool-argument rows time one large part rather than many 64-byte deltas.
import { streamGoogle } from "../../packages/ai/src/providers/google-generative-ai/index.js";
import { assertStreamSucceeded, benchModel, runProviderWireBench, toolArgumentDeltas } from "./provider-wire.js";

const model = (baseUrl: string) => benchModel("google-generative-ai", baseUrl);

function chunk(parts: Record<string, unknown>[], finishReason?: string): string {
	const candidate = { content: { role: "model", parts }, index: 0, ...(finishReason ? { finishReason } : {}) };
	const data: Record<string, unknown> = { candidates: [candidate], modelVersion: "bench-model", responseId: "bench" };
	if (finishReason) data.usageMetadata = { promptTokenCount: 10, candidatesTokenCount: 10, totalTokenCount: 20 };
	return `data: ${JSON.stringify(data)}\r\n\r\n`;
}

function textBody(deltas: number): string {
	const parts: string[] = [];
	for (let index = 0; index < deltas; index++) parts.push(chunk([{ text: "word " }]));
	parts.push(chunk([], "STOP"));
	return parts.join("");
}

function toolBody(argumentBytes: number): string {
	const { argumentsText } = toolArgumentDeltas(argumentBytes);
	return chunk([{ functionCall: { name: "write", args: JSON.parse(argumentsText) } }], "STOP");
}

export default async function (): Promise<void> {
	await runProviderWireBench({
		path: "/models/bench-model:streamGenerateContent?alt=sse",
		textBody,
		toolBody,
		provider: async (server) => {
			assertStreamSucceeded(await streamGoogle(model(server.url), { messages: [] }, { apiKey: "bench" }).result());
		},
	});
}
