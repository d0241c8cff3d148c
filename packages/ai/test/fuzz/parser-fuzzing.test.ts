// Property-based fuzzing of the readers beneath every stream: the SSE parser, Bedrock's event-stream
// frame reader, the streaming JSON parser of tool arguments and repairJson. Each gets hostile input
// in random pieces and must not throw, and must read the same whatever the cut: a reader that
// depends on where the network splits a body loses or garbles content. Fixed seeds; bounded runs.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
	parseJsonWithRepair,
	readServerSentEvents,
	repairJson,
	type ServerSentEvent,
	ServerSentEventParser,
	StreamingJsonParser,
} from "../../src/index.js";
import { EventStreamFrameReader } from "../../src/providers/bedrock-converse-stream/event-stream-frames.js";
import { encodeFrame } from "../providers/bedrock-converse-stream/bedrock-test-server.js";
import { chunkBytes, chunkSizes, hostileText } from "./body-mutations.js";

const SEED = 20_261_127;
const RUNS = 300;

/** Cuts text into pieces of the given sizes (then the rest), inside surrogate pairs too. */
function cutText(text: string, sizes: readonly number[]): string[] {
	const pieces: string[] = [];
	let offset = 0;
	for (const size of sizes) {
		if (offset >= text.length) break;
		pieces.push(text.slice(offset, offset + size));
		offset += size;
	}
	if (offset < text.length) pieces.push(text.slice(offset));
	return pieces;
}

/** SSE-looking text: field lines, comments, blank lines and every kind of line end, mixed with junk. */
const sseText = fc
	.array(
		fc.oneof(
			fc.constantFrom("data: ", "data:", "event: ", "id: 1", "retry: 5", ": comment", "\n", "\r\n", "\r", "\n\n"),
			hostileText,
			fc.jsonValue({ maxDepth: 2 }).map((value) => `data: ${JSON.stringify(value)}\n\n`),
		),
		{ maxLength: 30 },
	)
	.map((parts) => parts.join(""));

function parseSse(pieces: readonly string[]): ServerSentEvent[] {
	const events: ServerSentEvent[] = [];
	const parser = new ServerSentEventParser((event) => events.push(event));
	for (const piece of pieces) parser.push(piece);
	parser.end();
	return events;
}

describe("the SSE parser under fuzzed input", () => {
	it("reads the same events however the text is cut, and never throws", () => {
		fc.assert(
			fc.property(sseText, chunkSizes, (text, sizes) => {
				expect(parseSse(cutText(text, sizes))).toEqual(parseSse([text]));
			}),
			{ seed: SEED, numRuns: RUNS },
		);
	});

	it("reads the same events from bytes cut inside UTF-8 characters", async () => {
		await fc.assert(
			fc.asyncProperty(sseText, chunkSizes, async (text, sizes) => {
				const pieces = chunkBytes(new TextEncoder().encode(text), sizes);
				const body = new ReadableStream<Uint8Array>({
					start(controller) {
						for (const piece of pieces) controller.enqueue(piece);
						controller.close();
					},
				});
				const events: ServerSentEvent[] = [];
				for await (const batch of readServerSentEvents(body)) events.push(...batch);
				// A lone surrogate cannot survive UTF-8: compare with the text as UTF-8 decodes it.
				expect(events).toEqual(parseSse([new TextDecoder().decode(new TextEncoder().encode(text))]));
			}),
			{ seed: SEED, numRuns: 100 },
		);
	});
});

function readFrames(pieces: readonly Uint8Array[]) {
	const reader = new EventStreamFrameReader();
	const frames = pieces.flatMap((piece) =>
		reader.push(piece).map((frame) => ({ ...frame, payload: [...frame.payload] })),
	);
	return { frames, failed: reader.error !== undefined };
}

const validFrames = fc
	.array(
		fc.record({
			event: fc.constantFrom("messageStart", "contentBlockDelta", "messageStop"),
			body: fc.jsonValue({ maxDepth: 2 }),
		}),
		{ maxLength: 6 },
	)
	.map((frames) => {
		const encoded = frames.map((frame) => encodeFrame(frame));
		const bytes = new Uint8Array(encoded.reduce((sum, part) => sum + part.length, 0));
		let offset = 0;
		for (const part of encoded) {
			bytes.set(part, offset);
			offset += part.length;
		}
		return bytes;
	});

/** Valid frames with bytes overwritten, inserted or cut, or plain random bytes. */
const frameBytes = fc.oneof(
	validFrames,
	fc.uint8Array({ maxLength: 200 }),
	fc
		.tuple(
			validFrames,
			fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 }),
			fc.nat(),
		)
		.map(([bytes, flips, cut]) => {
			const copy = bytes.slice();
			for (const [at, value] of flips) if (copy.length > 0) copy[at % copy.length] = value;
			return copy.subarray(0, copy.length === 0 ? 0 : copy.length - (cut % Math.min(copy.length, 8)));
		}),
);

describe("the Bedrock event-stream frame reader under fuzzed bytes", () => {
	it("reads the same frames however the bytes are cut, never throws, and stops at the first fault", () => {
		fc.assert(
			fc.property(frameBytes, chunkSizes, (bytes, sizes) => {
				expect(readFrames(chunkBytes(bytes, sizes))).toEqual(readFrames([bytes]));
			}),
			{ seed: SEED, numRuns: RUNS },
		);
	});
});

function pushAll(pieces: readonly string[]) {
	const parser = new StreamingJsonParser();
	for (const piece of pieces) parser.push(piece);
	const partial = parser.value;
	return { partial, result: parser.finish() };
}

/** JSON text, sometimes with whitespace around its tokens. */
const jsonText = fc
	.tuple(fc.jsonValue({ maxDepth: 4 }), fc.boolean())
	.map(([value, pretty]) => (pretty ? JSON.stringify(value, null, 1) : JSON.stringify(value)));

describe("the streaming JSON parser under fuzzed deltas", () => {
	it("reads any valid JSON whole, however it is cut", () => {
		fc.assert(
			fc.property(jsonText, chunkSizes, (text, sizes) => {
				const { result } = pushAll(cutText(text, sizes));
				expect(result.complete).toBe(true);
				expect(result.value).toStrictEqual(JSON.parse(text));
			}),
			{ seed: SEED, numRuns: RUNS },
		);
	});

	it("never throws on hostile text, and its value does not depend on the cuts", () => {
		const hostileJson = fc.oneof(
			hostileText,
			fc.tuple(jsonText, fc.nat(), hostileText).map(([text, at, junk]) => {
				const cut = text.length === 0 ? 0 : at % text.length;
				return text.slice(0, cut) + junk + text.slice(cut);
			}),
		);
		fc.assert(
			fc.property(hostileJson, chunkSizes, (text, sizes) => {
				const whole = pushAll([text]);
				const cut = pushAll(cutText(text, sizes));
				expect(cut.result).toStrictEqual(whole.result);
				expect(cut.partial).toStrictEqual(whole.partial);
			}),
			{ seed: SEED, numRuns: RUNS },
		);
	});
});

describe("repairJson under fuzzed text", () => {
	it("leaves valid JSON unchanged, repairs idempotently, and parseJsonWithRepair throws only SyntaxError", () => {
		fc.assert(
			fc.property(fc.oneof(jsonText, hostileText, fc.string({ unit: "binary" })), (text) => {
				let valid = true;
				try {
					JSON.parse(text);
				} catch {
					valid = false;
				}
				const repaired = repairJson(text);
				if (valid) expect(repaired).toBe(text);
				expect(repairJson(repaired)).toBe(repaired);
				try {
					parseJsonWithRepair(text);
				} catch (error) {
					expect(error).toBeInstanceOf(SyntaxError);
				}
			}),
			{ seed: SEED, numRuns: RUNS },
		);
	});
});
