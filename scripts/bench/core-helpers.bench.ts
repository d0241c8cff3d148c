// Core helpers on inputs of realistic and large size: sanitizeSurrogates (fast path and repair),
// transformMessages on a long cross-model history, and the faux provider's streaming overhead.
import { complete } from "../../packages/ai/src/index.js";
import { normalizeAnthropicToolCallId } from "../../packages/ai/src/message/tool-call-ids.js";
import { transformMessages } from "../../packages/ai/src/message/transform-messages.js";
import { registerFauxProvider } from "../../packages/ai/src/testing/faux-provider.js";
import type { Api, AssistantMessage, Message, Model } from "../../packages/ai/src/types.js";
import { sanitizeSurrogates } from "../../packages/ai/src/utils/sanitize-unicode.js";
import { medianMs, printTable } from "./measure.js";

const MEGABYTE = 1024 * 1024;

function history(turns: number): Message[] {
	const messages: Message[] = [];
	for (let turn = 0; turn < turns; turn++) {
		messages.push({ role: "user", content: `question ${turn}`, timestamp: turn });
		const assistant: AssistantMessage = {
			role: "assistant",
			content: [
				{ type: "thinking", thinking: `thinking about ${turn}`, thinkingSignature: "sig" },
				{ type: "text", text: `answer ${turn}` },
				{ type: "toolCall", id: `call_${turn}|fc_${turn}`, name: "read", arguments: { path: `${turn}.txt` } },
			],
			api: "openai-responses",
			provider: "openai",
			model: "gpt",
			usage: {
				input: 0,
				output: 0,
				cacheRead: 0,
				cacheWrite: 0,
				totalTokens: 0,
				cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
			},
			stopReason: "toolUse",
			timestamp: turn,
		};
		messages.push(assistant);
		messages.push({
			role: "toolResult",
			toolCallId: `call_${turn}|fc_${turn}`,
			toolName: "read",
			content: [{ type: "text", text: "ok" }],
			isError: false,
			timestamp: turn,
		});
	}
	return messages;
}

const claude: Model<Api> = {
	id: "claude",
	name: "claude",
	api: "anthropic-messages",
	provider: "anthropic",
	baseUrl: "",
	reasoning: true,
	input: ["text"],
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
	contextWindow: 200_000,
	maxTokens: 8192,
};

export default async function (): Promise<void> {
	const clean = "plain ascii text with an emoji 🙈 ".repeat(MEGABYTE / 32);
	const ascii = "a".repeat(MEGABYTE);
	const broken = "x\uD83D".repeat(MEGABYTE / 2);
	const cutAtEnd = `${"a".repeat(MEGABYTE)}\uD83D`;
	const long = history(10_000);
	const rows: Record<string, string | number>[] = [
		{ case: "sanitizeSurrogates, 1 MiB ASCII (fast path)", ms: await medianMs(() => sanitizeSurrogates(ascii)) },
		{ case: "sanitizeSurrogates, 1 MiB with paired emoji", ms: await medianMs(() => sanitizeSurrogates(clean)) },
		{
			case: "sanitizeSurrogates, 1 MiB, one lone surrogate at the end",
			ms: await medianMs(() => sanitizeSurrogates(cutAtEnd)),
		},
		{ case: "sanitizeSurrogates, 1 MiB, half lone surrogates", ms: await medianMs(() => sanitizeSurrogates(broken)) },
		{
			case: "transformMessages, 30k messages, other model",
			ms: await medianMs(() => transformMessages(long, claude, normalizeAnthropicToolCallId)),
		},
	];

	const faux = registerFauxProvider({ api: "faux-bench", chunkCharacters: 4 });
	const model = faux.getModel();
	const text = "word ".repeat(20_000); // 100k characters → 25k deltas
	const context = { messages: [{ role: "user" as const, content: "go", timestamp: 0 }] };
	const fauxMs = await medianMs(async () => {
		faux.setResponses([text]);
		await complete(model, context);
	}, 3);
	faux.unregister();
	rows.push({ case: "faux provider, 100k characters in 25k deltas", ms: fauxMs });
	printTable(rows);
}
