// A program that talks only to an OpenAI-compatible server (Ollama, vLLM, a gateway), through the
// root `@keel/ai` as its documentation shows. Bundled for a neutral target, it must not need Node.
import { complete, defineModel } from "@keel/ai";

export async function ask(baseUrl: string, question: string): Promise<string> {
	const model = defineModel({ id: "qwen3:8b", baseUrl });
	const answer = await complete(model, { messages: [{ role: "user", content: question, timestamp: Date.now() }] });
	return answer.content.map((block) => (block.type === "text" ? block.text : "")).join("");
}
