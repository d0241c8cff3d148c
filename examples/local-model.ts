// A local model (Ollama, LM Studio, vLLM, llama.cpp) through @keel/ai: no key, no catalogue entry.
//
//   ollama pull qwen3:8b && ollama serve          # or start LM Studio / vLLM / llama-server
//   node --import tsx examples/local-model.ts [model-id] [base-url]
//
// Defaults: model "qwen3:8b" at Ollama's http://127.0.0.1:11434/v1. For LM Studio use
// http://127.0.0.1:1234/v1, vLLM http://127.0.0.1:8000/v1, llama.cpp http://127.0.0.1:8080/v1.
// (Run `npx -y pnpm@10.34.9 run build` once first: the example imports the built @keel/ai.)
// A failed call (no server, unknown model) prints its error on stderr and the process exits with 1.
import { defineModel, LOCAL_SERVER_URLS, streamSimple } from "@keel/ai";

const id = process.argv[2] ?? process.env.KEEL_LOCAL_MODEL ?? "qwen3:8b";
const baseUrl = process.argv[3] ?? process.env.KEEL_LOCAL_BASE_URL ?? LOCAL_SERVER_URLS.ollama;
// reasoning: true lets streamSimple switch thinking on; servers that ignore it just answer.
const model = defineModel({ id, baseUrl, reasoning: true });

const stream = streamSimple(
	model,
	{ messages: [{ role: "user", content: "In one sentence: why is the sky blue?", timestamp: Date.now() }] },
	// A local model may take a while to load on the first request.
	{ reasoning: "low", idleTimeoutMs: 300_000 },
);
for await (const event of stream) {
	if (event.type === "thinking_delta") process.stdout.write(`\x1b[2m${event.delta}\x1b[0m`);
	if (event.type === "text_delta") process.stdout.write(event.delta);
}
const result = await stream.result();
if (result.stopReason === "error" || result.stopReason === "aborted") {
	console.error(`\n${result.stopReason}: ${result.errorMessage}`);
	console.error(
		`Is a server running at ${baseUrl} with model "${id}"? Pass another: local-model.ts <model-id> <base-url>`,
	);
	process.exitCode = 1;
} else {
	console.log(`\n(${result.usage.input} tokens in, ${result.usage.output} out)`);
}
