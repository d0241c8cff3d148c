// Valid answers beyond text and one tool call, per API, so fuzzing reaches the decoders' reasoning,
// thinking and multi-block paths: mutating a body can only reach what its seed shows.
import {
	anthropicSse,
	blockStop,
	messageDelta,
	messageStart,
	messageStop,
	redactedThinking,
	signatureDelta,
	textDelta,
	textStart,
	thinkingDelta,
	thinkingStart,
} from "../providers/anthropic/fixtures.js";
import { finishChunk, geminiSse, partsChunk } from "../providers/google-generative-ai/fixtures.js";
import { mistralChunk, mistralSse } from "../providers/mistral-conversations/fixtures.js";
import { chunk, sse, usageChunk } from "../providers/openai-completions/fixtures.js";
import {
	completed,
	created,
	functionCallEvents,
	messageEvents,
	reasoningEvents,
	responsesSse,
} from "../providers/openai-responses/fixtures.js";

const responsesReasoning = () =>
	responsesSse([
		created(),
		...reasoningEvents(0, [["Think", "ing"], ["more"]]),
		...messageEvents(1, ["Hel", "lo"]),
		...functionCallEvents(2, "read", ['{"path":', '"a"}']),
		completed(),
	]);

/** Extra seeds by API name; APIs not listed have none. */
export const RICHER_SEEDS: Record<string, () => string> = {
	"anthropic-messages": () =>
		anthropicSse([
			messageStart(),
			thinkingStart(0),
			thinkingDelta(0, "Let me think"),
			signatureDelta(0, "sig"),
			blockStop(0),
			redactedThinking(1, "opaque"),
			blockStop(1),
			textStart(2),
			textDelta(2, "Answer"),
			blockStop(2),
			messageDelta("end_turn"),
			messageStop,
		]),
	"openai-completions": () =>
		sse([
			chunk({ role: "assistant", reasoning_content: "thinking" }),
			chunk({ content: "Hello" }),
			chunk({ tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name: "a", arguments: "{}" } }] }),
			chunk({
				tool_calls: [{ index: 1, id: "call_2", type: "function", function: { name: "b", arguments: '{"x":1}' } }],
			}),
			chunk({}, { finish: "tool_calls" }),
			usageChunk({ prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 }),
		]),
	"openai-responses": responsesReasoning,
	"azure-openai-responses": responsesReasoning,
	"openai-codex-responses": responsesReasoning,
	"mistral-conversations": () =>
		mistralSse([
			mistralChunk({ role: "assistant", content: [{ type: "thinking", thinking: [{ type: "text", text: "hm" }] }] }),
			mistralChunk({ content: "Hello" }),
			mistralChunk({ content: "" }, { finish: "stop" }),
		]),
	"google-generative-ai": () =>
		geminiSse([
			partsChunk([{ text: "Thinking", thought: true, thoughtSignature: "c2ln" }]),
			partsChunk([{ text: "Hello" }]),
			partsChunk([{ functionCall: { name: "read", args: { path: "a" } } }]),
			finishChunk("STOP"),
		]),
};
RICHER_SEEDS["google-vertex"] = RICHER_SEEDS["google-generative-ai"];
