// Property-based fuzzing of Bedrock's stream() over fetch and a local HTTP server: a
// valid Converse stream (text, a tool call, reasoning) is mutated at the event level (events
// dropped, repeated, swapped, values replaced in their JSON; frames re-encoded with valid
// checksums, so the decoder sees them) and then at the byte level (bytes flipped, inserted, the
// body cut; the event-stream reader sees them). The call must still end with exactly one terminal
// event, keeping the content streamed so far.
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { streamBedrock } from "../../src/providers/bedrock-converse-stream/index.js";
import type { AssistantMessageEvent } from "../../src/types.js";
import { userMessage } from "../helpers/messages.js";
import {
	type BedrockFrame,
	blockStop,
	encodeFrame,
	messageStart,
	messageStop,
	metadata,
	reasoningDelta,
	textDelta,
	textFrames,
	toolUseDelta,
	toolUseStart,
} from "../providers/bedrock-converse-stream/bedrock-test-server.js";
import { bedrockModel } from "../providers/bedrock-converse-stream/fixtures.js";
import { useBedrockServer } from "../providers/bedrock-converse-stream/server-setup.js";
import { bodyMutation, chunkBytes, chunkSizes, hostileText, mutateBody, position } from "./body-mutations.js";
import { streamInvariantViolation } from "./stream-invariants.js";

// Runs are bounded by count, not time; the limit only catches a hang, generously on a loaded machine.
vi.setConfig({ testTimeout: 120_000 });

const wire = useBedrockServer();

const SEEDS: BedrockFrame[][] = [
	textFrames("Hello world"),
	[
		messageStart(),
		toolUseStart(0, "tooluse_1", "read"),
		toolUseDelta(0, '{"path":"a'),
		toolUseDelta(0, '.txt"}'),
		blockStop(0),
		messageStop("tool_use"),
		metadata({ inputTokens: 10, outputTokens: 3, totalTokens: 13 }),
	],
	[
		messageStart(),
		reasoningDelta(0, { reasoningText: { text: "Let me think" } }),
		reasoningDelta(0, { reasoningText: { signature: "sig" } }),
		blockStop(0),
		textDelta(1, "Answer"),
		blockStop(1),
		messageStop("end_turn"),
	],
];

/** Frames as `event:`/`data:` blocks, so the event-level mutations of body-mutations.ts apply to them. */
function framesAsText(frames: BedrockFrame[]): string {
	return frames
		.map(
			(frame) =>
				`event: ${(frame as { event: string }).event}\ndata: ${JSON.stringify((frame as { body: unknown }).body)}\n\n`,
		)
		.join("");
}

function textAsFrames(text: string): Uint8Array {
	const parts: Uint8Array[] = [];
	for (const block of text.split("\n\n")) {
		const event = /^event: (.*)$/m.exec(block)?.[1];
		const data = /^data: (.*)$/m.exec(block)?.[1];
		if (event === undefined || data === undefined) continue;
		let body: unknown;
		try {
			body = JSON.parse(data);
		} catch {
			continue;
		}
		parts.push(encodeFrame({ event, body }));
	}
	const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
	let offset = 0;
	for (const part of parts) {
		bytes.set(part, offset);
		offset += part.length;
	}
	return bytes;
}

type ByteMutation = { kind: "flip" | "insert" | "truncate"; at: number; text: string };
const byteMutation: fc.Arbitrary<ByteMutation> = fc.record({
	kind: fc.constantFrom("flip" as const, "insert" as const, "truncate" as const),
	at: position,
	text: hostileText,
});

function mutateBytes(bytes: Uint8Array, mutations: readonly ByteMutation[]): Uint8Array {
	let result = bytes;
	for (const mutation of mutations) {
		const at = Math.floor(mutation.at * result.length);
		const inserted = new TextEncoder().encode(mutation.text);
		if (mutation.kind === "truncate") result = result.subarray(0, at);
		else {
			const skip = mutation.kind === "flip" ? Math.min(inserted.length, result.length - at) : 0;
			const next = new Uint8Array(result.length + inserted.length - skip);
			next.set(result.subarray(0, at));
			next.set(inserted, at);
			next.set(result.subarray(at + skip), at + inserted.length);
			result = next;
		}
	}
	return result;
}

describe("bedrock-converse-stream stream() under fuzzed event streams", () => {
	it("never throws, never hangs, ends with one terminal event and keeps the content so far", async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.nat({ max: SEEDS.length - 1 }),
				fc.array(bodyMutation, { maxLength: 3 }),
				fc.array(byteMutation, { maxLength: 2 }),
				chunkSizes,
				async (seedIndex, mutations, byteMutations, sizes) => {
					const bytes = mutateBytes(textAsFrames(mutateBody(framesAsText(SEEDS[seedIndex]), mutations)), byteMutations);
					const server = await wire.start(() => ({
						frames: chunkBytes(bytes, sizes).map((piece) => ({ bytes: piece })),
					}));
					try {
						const stream = streamBedrock(
							bedrockModel({ baseUrl: server.url }),
							{ messages: [userMessage("Hi")] },
							{ maxRetries: 0 },
						);
						const events: AssistantMessageEvent[] = [];
						for await (const event of stream) events.push(event);
						const violation = streamInvariantViolation(events, await stream.result());
						expect(violation).toBeUndefined();
					} finally {
						await server.close();
					}
				},
			),
			{ seed: 20_261_127, numRuns: 40 },
		);
	});
});
