// anthropic-messages through the real @anthropic-ai/sdk against the local wire-test server, each row
// next to the floor (raw fetch + SSE split + JSON.parse of the same body in the same run).
import { streamAnthropic } from "../../packages/ai/src/providers/anthropic/index.js";
// The SDK is a dependency of @keel/ai, not of the repo root: reach it through the provider's factory.
import { createAnthropicClient } from "../../packages/ai/src/providers/anthropic/transport.js";
import { WireTestServer } from "../../packages/ai/src/testing/wire-test-server.js";
import type { Model } from "../../packages/ai/src/types.js";
import { medianMs, printTable, sseFloorMs } from "./measure.js";

// More runs than the default 5: the three variants are compared, so their medians must be stable.
const REPEAT = 9;

const model = (baseUrl: string): Model<"anthropic-messages"> => ({
	id: "claude-bench-1",
	name: "Bench",
	api: "anthropic-messages",
	provider: "anthropic",
	baseUrl,
	reasoning: false,
	input: ["text"],
	cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
	contextWindow: 1_000_000,
	maxTokens: 100_000,
});

/** One SSE event as Anthropic sends it: the `event:` name, then the JSON with the same `type`. */
function sseEvent(data: { type: string } & Record<string, unknown>): string {
	return `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`;
}

function opening(): string[] {
	return [
		sseEvent({
			type: "message_start",
			message: {
				id: "msg_bench",
				type: "message",
				role: "assistant",
				model: "claude-bench-1",
				content: [],
				stop_reason: null,
				stop_sequence: null,
				usage: { input_tokens: 10, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
			},
		}),
	];
}

function closing(stopReason: string): string[] {
	return [
		sseEvent({ type: "content_block_stop", index: 0 }),
		sseEvent({
			type: "message_delta",
			delta: { stop_reason: stopReason, stop_sequence: null },
			usage: { output_tokens: 9 },
		}),
		sseEvent({ type: "message_stop" }),
	];
}

function textBody(deltas: number): string {
	const parts = opening();
	parts.push(sseEvent({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }));
	const delta = sseEvent({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "word " } });
	for (let index = 0; index < deltas; index++) parts.push(delta);
	parts.push(...closing("end_turn"));
	return parts.join("");
}

function toolBody(argumentBytes: number): string {
	// A JSON object whose one string value fills the requested size, sent in 64-byte deltas.
	const argumentsText = JSON.stringify({ content: "x".repeat(Math.max(0, argumentBytes - 14)) });
	const parts = opening();
	parts.push(
		sseEvent({
			type: "content_block_start",
			index: 0,
			content_block: { type: "tool_use", id: "toolu_bench", name: "write", input: {} },
		}),
	);
	for (let offset = 0; offset < argumentsText.length; offset += 64) {
		parts.push(
			sseEvent({
				type: "content_block_delta",
				index: 0,
				delta: { type: "input_json_delta", partial_json: argumentsText.slice(offset, offset + 64) },
			}),
		);
	}
	parts.push(...closing("tool_use"));
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
				await sseFloorMs(`${server.url}/v1/messages`, { method: "POST", body: "{}" });
			}, REPEAT);
			// The SDK's own event iteration without Keel: separates the SDK's cost from the provider's.
			const client = createAnthropicClient(model(server.url), "bench", "apiKey");
			const sdkOnly = await medianMs(async () => {
				server.enqueue({ body });
				const events = await client.messages.create({
					model: "claude-bench-1",
					max_tokens: 1,
					messages: [{ role: "user", content: "bench" }],
					stream: true,
				});
				for await (const _event of events);
			}, REPEAT);
			const provider = await medianMs(async () => {
				server.enqueue({ body });
				const result = await streamAnthropic(
					model(server.url),
					{ messages: [{ role: "user", content: "bench", timestamp: 0 }] },
					{ apiKey: "bench" },
				).result();
				if (result.stopReason === "error") throw new Error(`bench stream failed: ${result.errorMessage}`);
			}, REPEAT);
			rows.push({
				case: name,
				"body KB": Math.round(body.length / 1024),
				"floor ms": floor,
				"SDK only ms": sdkOnly,
				"provider ms": provider,
				"× floor": provider / floor,
			});
		}
	} finally {
		await server.close();
	}
	printTable(rows);
}
