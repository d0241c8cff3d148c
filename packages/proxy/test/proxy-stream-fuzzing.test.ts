// Property-based fuzzing of the proxy client's decoder through streamProxy(): valid proxy event
// streams (text, thinking, a tool call) are mutated — events dropped, repeated, swapped, values
// replaced inside their JSON, junk and bytes inserted, the body cut — and handed to the client in
// random byte chunks by a fetch of the test's own. Whatever arrives, the call must end with exactly
// one terminal event and keep the content streamed so far. Fixed seed, bounded runs.
import type { Api, AssistantMessageEvent, Model } from "@keel/ai";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bodyMutation, chunkBytes, chunkSizes, mutateBody } from "../../ai/test/fuzz/body-mutations.js";
import { streamInvariantViolation } from "../../ai/test/fuzz/stream-invariants.js";
import { streamProxy } from "../src/client.js";
import type { ProxyAssistantMessageEvent } from "../src/protocol.js";

const model: Model<Api> = {
	id: "test-model",
	name: "Test",
	api: "faux",
	provider: "faux",
	baseUrl: "faux://local",
	reasoning: false,
	input: ["text"],
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
	contextWindow: 1000,
	maxTokens: 100,
};

const usage = {
	input: 1,
	output: 2,
	cacheRead: 0,
	cacheWrite: 0,
	totalTokens: 3,
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};

const SEEDS: ProxyAssistantMessageEvent[][] = [
	[
		{ type: "start" },
		{ type: "text_start", contentIndex: 0 },
		{ type: "text_delta", contentIndex: 0, delta: "Hello" },
		{ type: "text_delta", contentIndex: 0, delta: " world" },
		{ type: "text_end", contentIndex: 0, textSignature: "sig" },
		{ type: "done", reason: "stop", message: { usage, responseId: "resp_1" } },
	],
	[
		{ type: "start" },
		{ type: "thinking_start", contentIndex: 0 },
		{ type: "thinking_delta", contentIndex: 0, delta: "Let me think" },
		{ type: "thinking_end", contentIndex: 0, thinkingSignature: "sig" },
		{ type: "toolcall_start", contentIndex: 1, id: "call_1", toolName: "search" },
		{ type: "toolcall_delta", contentIndex: 1, delta: '{"query":' },
		{ type: "toolcall_delta", contentIndex: 1, delta: '"keel"}' },
		{
			type: "toolcall_end",
			contentIndex: 1,
			toolCall: { type: "toolCall", id: "call_1", name: "search", arguments: { query: "keel" } },
		},
		{ type: "done", reason: "toolUse", message: { usage } },
	],
	[
		{ type: "start" },
		{ type: "text_start", contentIndex: 0 },
		{ type: "text_delta", contentIndex: 0, delta: "half" },
		{ type: "error", reason: "error", errorMessage: "upstream failed", message: { usage } },
	],
];

function sseBody(events: readonly ProxyAssistantMessageEvent[]): string {
	return events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join("");
}

describe("streamProxy under fuzzed proxy streams", () => {
	it("never throws, never hangs, ends with one terminal event and keeps the content so far", async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.nat({ max: SEEDS.length - 1 }),
				fc.array(bodyMutation, { minLength: 1, maxLength: 4 }),
				chunkSizes,
				async (seedIndex, mutations, sizes) => {
					const body = mutateBody(sseBody(SEEDS[seedIndex]), mutations);
					const pieces = chunkBytes(new TextEncoder().encode(body), sizes);
					const fetchBody: typeof fetch = async () =>
						new Response(
							new ReadableStream<Uint8Array>({
								start(controller) {
									for (const piece of pieces) controller.enqueue(piece);
									controller.close();
								},
							}),
							{ status: 200, headers: { "content-type": "text/event-stream" } },
						);
					const stream = streamProxy(
						model,
						{ messages: [] },
						{ proxyUrl: "http://127.0.0.1:1", authToken: "token", fetch: fetchBody, maxRetries: 0 },
					);
					const events: AssistantMessageEvent[] = [];
					for await (const event of stream) events.push(event);
					const violation = streamInvariantViolation(events, await stream.result());
					expect(violation, `body ${JSON.stringify(body)}`).toBeUndefined();
				},
			),
			{ seed: 20_261_127, numRuns: 200 },
		);
	});
});
