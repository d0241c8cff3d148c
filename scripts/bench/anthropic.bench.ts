// anthropic-messages (Keel's own fetch + SSE reader) against the local wire-test server, each row
// next to the floor (raw fetch + SSE split + JSON.parse of the same body in the same run) and the
// Anthropic SDK's own event iterator, the alternative Keel does not use.
import type AnthropicSdk from "@anthropic-ai/sdk";
import { streamAnthropic } from "../../packages/ai/src/providers/anthropic/index.js";
import {
	assertStreamSucceeded,
	benchModel,
	importVendorSdk,
	runProviderWireBench,
	toolArgumentDeltas,
} from "./provider-wire.js";

// More runs than the default 5: the three variants are compared, so their medians must be stable.
const REPEAT = 9;

const model = (baseUrl: string) =>
	benchModel("anthropic-messages", baseUrl, { id: "claude-bench-1", provider: "anthropic" });

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
	const parts = opening();
	parts.push(
		sseEvent({
			type: "content_block_start",
			index: 0,
			content_block: { type: "tool_use", id: "toolu_bench", name: "write", input: {} },
		}),
	);
	for (const partialJson of toolArgumentDeltas(argumentBytes).deltas) {
		parts.push(
			sseEvent({
				type: "content_block_delta",
				index: 0,
				delta: { type: "input_json_delta", partial_json: partialJson },
			}),
		);
	}
	parts.push(...closing("tool_use"));
	return parts.join("");
}

export default async function (): Promise<void> {
	const { default: Anthropic } = await importVendorSdk<{ default: typeof AnthropicSdk }>("@anthropic-ai/sdk");
	await runProviderWireBench({
		path: "/v1/messages",
		textBody,
		toolBody,
		repeat: REPEAT,
		provider: async (server) => {
			const context = { messages: [{ role: "user" as const, content: "bench", timestamp: 0 }] };
			assertStreamSucceeded(await streamAnthropic(model(server.url), context, { apiKey: "bench" }).result());
		},
		variants: (server) => {
			// The SDK's own event iteration without Keel: separates the SDK's cost from the provider's.
			const client = new Anthropic({ apiKey: "bench", baseURL: server.url, maxRetries: 0 });
			return {
				"SDK only ms": async () => {
					const events = await client.messages.create({
						model: "claude-bench-1",
						max_tokens: 1,
						messages: [{ role: "user", content: "bench" }],
						stream: true,
					});
					for await (const _event of events);
				},
			};
		},
	});
}
