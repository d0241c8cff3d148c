// What the campaign fuzzes: every API's stream() (HTTP APIs through a stubbed fetch, Bedrock through
// its local HTTP/2 test server), the proxy client, the readers beneath them, session records and
// opening damaged transcripts. Each target has seed inputs (valid answers from the test fixtures) and
// a run that returns the rule an input broke, if any — the same rules as the fuzz tests.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseSessionRecords, Session, SessionRecordError } from "../../packages/agent/src/session/index.js";
import { createJsonlTranscriptStore } from "../../packages/agent/src/session/jsonl/index.js";
import {
	type AssistantMessageEvent,
	parseJsonWithRepair,
	repairJson,
	type ServerSentEvent,
	ServerSentEventParser,
	StreamingJsonParser,
} from "../../packages/ai/src/index.js";
import { EventStreamFrameReader } from "../../packages/ai/src/providers/bedrock-converse-stream/event-stream-frames.js";
import { streamBedrock } from "../../packages/ai/src/providers/bedrock-converse-stream/index.js";
import { chunkBytes } from "../../packages/ai/test/fuzz/body-mutations.js";
import { RICHER_SEEDS } from "../../packages/ai/test/fuzz/richer-seeds.js";
import { streamInvariantViolation } from "../../packages/ai/test/fuzz/stream-invariants.js";
import { userMessage } from "../../packages/ai/test/helpers/messages.js";
import {
	type BedrockTestServer,
	blockStop,
	encodeFrame,
	messageStart,
	messageStop,
	startBedrockServer,
	textFrames,
	toolUseDelta,
	toolUseStart,
} from "../../packages/ai/test/providers/bedrock-converse-stream/bedrock-test-server.js";
import { bedrockModel } from "../../packages/ai/test/providers/bedrock-converse-stream/fixtures.js";
import { API_CASES, TEST_KEY } from "../../packages/ai/test/providers/http/api-cases.js";
import { streamProxy } from "../../packages/proxy/src/client.js";

/** One input: a body (text; for byte targets, one character per byte) and the chunk sizes it arrives in. */
export interface FuzzInput {
	text: string;
	sizes: number[];
}

export interface FuzzTarget {
	name: string;
	seeds: string[];
	setup?(): Promise<void>;
	teardown?(): Promise<void>;
	/** The rule the input broke, or undefined. Throwing is a finding too. */
	run(input: FuzzInput): Promise<string | undefined>;
}

function bodyStream(pieces: Uint8Array[]): ReadableStream<Uint8Array> {
	return new ReadableStream({
		start(controller) {
			for (const piece of pieces) controller.enqueue(piece);
			controller.close();
		},
	});
}

async function collect(stream: AsyncIterable<AssistantMessageEvent> & { result(): Promise<unknown> }) {
	const events: AssistantMessageEvent[] = [];
	for await (const event of stream) events.push(event);
	return { events, result: (await stream.result()) as Parameters<typeof streamInvariantViolation>[1] };
}

/** The HTTP APIs: fetch answers with the input, cut into its chunks, so each input costs no socket. */
function httpApiTargets(): FuzzTarget[] {
	return API_CASES.map((api) => ({
		name: `stream:${api.name}`,
		seeds: [
			api.okBody(),
			api.toolCallBody(['{"path":"a', '.txt","n":', "1}"]),
			api.partialBody(),
			...(RICHER_SEEDS[api.name] ? [RICHER_SEEDS[api.name]()] : []),
		],
		async run(input) {
			const pieces = chunkBytes(new TextEncoder().encode(input.text), input.sizes);
			const realFetch = globalThis.fetch;
			globalThis.fetch = async () =>
				new Response(bodyStream(pieces), { status: 200, headers: { "content-type": "text/event-stream" } });
			try {
				const { events, result } = await collect(
					api.stream("http://fuzz.invalid", { apiKey: TEST_KEY, maxRetries: 0 }),
				);
				return streamInvariantViolation(events, result, TEST_KEY);
			} finally {
				globalThis.fetch = realFetch;
			}
		},
	}));
}

/** Bedrock frames as `event:`/`data:` blocks (so the text mutations apply) and back to encoded frames. */
function framesAsText(frames: ReturnType<typeof textFrames>): string {
	return frames
		.map(
			(frame) =>
				`event: ${(frame as { event: string }).event}\ndata: ${JSON.stringify((frame as { body: unknown }).body)}\n\n`,
		)
		.join("");
}

function textAsFrameBytes(text: string): Uint8Array {
	const parts: Uint8Array[] = [];
	for (const block of text.split("\n\n")) {
		const event = /^event: (.*)$/m.exec(block)?.[1];
		const data = /^data: (.*)$/m.exec(block)?.[1];
		if (event === undefined || data === undefined) continue;
		try {
			parts.push(encodeFrame({ event, body: JSON.parse(data) }));
		} catch {
			// A block whose JSON the mutations broke is left out.
		}
	}
	return concatenate(parts);
}

function concatenate(parts: Uint8Array[]): Uint8Array {
	const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
	let offset = 0;
	for (const part of parts) {
		bytes.set(part, offset);
		offset += part.length;
	}
	return bytes;
}

function bedrockTarget(): FuzzTarget {
	let server: BedrockTestServer | undefined;
	let current: Uint8Array[] = [];
	return {
		name: "stream:bedrock-converse-stream",
		seeds: [
			framesAsText(textFrames("Hello world")),
			framesAsText([
				messageStart(),
				toolUseStart(0, "tooluse_1", "read"),
				toolUseDelta(0, '{"path":"a'),
				toolUseDelta(0, '.txt"}'),
				blockStop(0),
				messageStop("tool_use"),
			]),
		],
		async setup() {
			process.env.AWS_ACCESS_KEY_ID = "AKIDTESTKEEL0000000";
			process.env.AWS_SECRET_ACCESS_KEY = "test-secret-access-key-keel-0123456789";
			process.env.AWS_REGION = "eu-west-1";
			server = await startBedrockServer(() => ({ frames: current.map((bytes) => ({ bytes })) }));
		},
		async teardown() {
			await server?.close();
		},
		async run(input) {
			current = chunkBytes(textAsFrameBytes(input.text), input.sizes);
			const model = bedrockModel({ baseUrl: server?.url });
			const { events, result } = await collect(
				streamBedrock(model, { messages: [userMessage("Hi")] }, { maxRetries: 0 }),
			);
			return streamInvariantViolation(events, result);
		},
	};
}

function proxyTarget(): FuzzTarget {
	const usage = {
		input: 1,
		output: 2,
		cacheRead: 0,
		cacheWrite: 0,
		totalTokens: 3,
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
	};
	const sse = (events: unknown[]) => events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join("");
	const model = { ...bedrockModel(), api: "faux", provider: "faux" } as never;
	return {
		name: "stream:proxy",
		seeds: [
			sse([
				{ type: "start" },
				{ type: "text_start", contentIndex: 0 },
				{ type: "text_delta", contentIndex: 0, delta: "Hello" },
				{ type: "text_end", contentIndex: 0 },
				{ type: "done", reason: "stop", message: { usage } },
			]),
			sse([
				{ type: "start" },
				{ type: "thinking_start", contentIndex: 0 },
				{ type: "thinking_delta", contentIndex: 0, delta: "hm" },
				{ type: "thinking_end", contentIndex: 0 },
				{ type: "toolcall_start", contentIndex: 1, id: "call_1", toolName: "search" },
				{ type: "toolcall_delta", contentIndex: 1, delta: '{"q":1}' },
				{ type: "toolcall_end", contentIndex: 1 },
				{ type: "done", reason: "toolUse", usage },
			]),
		],
		async run(input) {
			const pieces = chunkBytes(new TextEncoder().encode(input.text), input.sizes);
			const fetchBody: typeof fetch = async () =>
				new Response(bodyStream(pieces), { status: 200, headers: { "content-type": "text/event-stream" } });
			const stream = streamProxy(
				model,
				{ messages: [] },
				{ proxyUrl: "http://fuzz.invalid", authToken: "t", fetch: fetchBody, maxRetries: 0 },
			);
			const { events, result } = await collect(stream);
			return streamInvariantViolation(events, result);
		},
	};
}

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

function parseSse(pieces: readonly string[]): ServerSentEvent[] {
	const events: ServerSentEvent[] = [];
	const parser = new ServerSentEventParser((event) => events.push(event));
	for (const piece of pieces) parser.push(piece);
	parser.end();
	return events;
}

const same = (first: unknown, second: unknown) => JSON.stringify(first) === JSON.stringify(second);

function parserTargets(): FuzzTarget[] {
	const latin1 = (bytes: Uint8Array) => String.fromCharCode(...bytes);
	const toBytes = (text: string) => Uint8Array.from(text, (character) => character.charCodeAt(0) & 0xff);
	const readFrames = (pieces: Uint8Array[]) => {
		const reader = new EventStreamFrameReader();
		const frames = pieces.flatMap((piece) =>
			reader.push(piece).map((frame) => ({ ...frame, payload: [...frame.payload] })),
		);
		return { frames, failed: reader.error !== undefined };
	};
	const pushAll = (pieces: readonly string[]) => {
		const parser = new StreamingJsonParser();
		for (const piece of pieces) parser.push(piece);
		return { partial: parser.value, result: parser.finish() };
	};
	return [
		{
			name: "reader:sse",
			seeds: [API_CASES[0].okBody(), "event: x\r\ndata: a\r\ndata: b\r\r: c\n\n"],
			async run(input) {
				return same(parseSse(cutText(input.text, input.sizes)), parseSse([input.text]))
					? undefined
					: "SSE events depend on the cuts";
			},
		},
		{
			name: "reader:event-stream-frames",
			seeds: [latin1(textAsFrameBytes(framesAsText(textFrames("Hello"))))],
			async run(input) {
				const bytes = toBytes(input.text);
				return same(readFrames(chunkBytes(bytes, input.sizes)), readFrames([bytes]))
					? undefined
					: "frames depend on the cuts";
			},
		},
		{
			name: "parser:streaming-json",
			seeds: ['{"path":"a\\u00e9b","list":[1,-2.5e3,true,null,{"k":"v"}],"n":123}', '["\\ud83d\\ude00", {"a": {}}]'],
			async run(input) {
				const whole = pushAll([input.text]);
				const cut = pushAll(cutText(input.text, input.sizes));
				if (!same(whole, cut)) return "the parsed value depends on the cuts";
				let parsed: unknown;
				try {
					parsed = JSON.parse(input.text);
				} catch {
					return undefined;
				}
				return whole.result.complete && same(whole.result.value, parsed) ? undefined : "valid JSON not read whole";
			},
		},
		{
			name: "parser:repair-json",
			seeds: ['{"path":"C:\\Users\\me","code":"a\nb"}', '{"ok":"\\u00e9"}'],
			async run(input) {
				const repaired = repairJson(input.text);
				if (repairJson(repaired) !== repaired) return "repairJson is not idempotent";
				try {
					JSON.parse(input.text);
					if (repaired !== input.text) return "repairJson changed valid JSON";
				} catch {
					// Not valid: nothing more to compare.
				}
				try {
					parseJsonWithRepair(input.text);
				} catch (error) {
					if (!(error instanceof SyntaxError)) return `parseJsonWithRepair threw ${String(error)}`;
				}
				return undefined;
			},
		},
	];
}

function sessionTargets(transcript: string): FuzzTarget[] {
	const directory = mkdtempSync(join(tmpdir(), "keel-fuzz-sessions-"));
	let run = 0;
	return [
		{
			name: "session:records",
			seeds: transcript.split("\n").filter(Boolean),
			async run(input) {
				try {
					parseSessionRecords(input.text, 1);
				} catch (error) {
					if (!(error instanceof SessionRecordError)) return `parseSessionRecords threw ${String(error)}`;
				}
				return undefined;
			},
		},
		{
			name: "session:open-damaged",
			seeds: [transcript.replaceAll("\n", "\n\n")],
			async run(input) {
				const sessionId = `run-${run++}`;
				writeFileSync(join(directory, `${sessionId}.jsonl`), input.text);
				const store = createJsonlTranscriptStore({ directory });
				const all = await Session.open(store, sessionId, { load: "all" });
				const ids = all.modelContextRecords().map((record) => record.id);
				await all.close();
				const context = await Session.open(store, sessionId, { load: "context" });
				try {
					const contextIds = context.modelContextRecords().map((record) => record.id);
					if (!same(ids, contextIds)) return "load: all and load: context resume different conversations";
					if (new Set(ids).size !== ids.length) return "a message is sent twice";
					await context.append(userMessage("after"));
				} finally {
					await context.close();
				}
				return undefined;
			},
		},
	];
}

/** A transcript with tool calls, a fork and a tombstone, written by a real session. */
async function seedTranscript(): Promise<string> {
	const { readFileSync } = await import("node:fs");
	const { assistantMessage, toolResult } = await import("../../packages/agent/test/session-helpers.js");
	const directory = mkdtempSync(join(tmpdir(), "keel-fuzz-seed-"));
	const session = await Session.create(createJsonlTranscriptStore({ directory }), {
		sessionId: "seed",
		state: { currentTask: "t" },
	});
	await session.append(userMessage("first"));
	const asked = await session.append(assistantMessage("look", [{ id: "call_1", name: "read" }]));
	await session.append(toolResult("call_1", "contents"));
	const second = await session.append(userMessage("second"));
	await session.append(assistantMessage("answer"));
	await session.fork(asked.id);
	await session.tombstone(second.id);
	await session.append(assistantMessage("final"));
	await session.close();
	return readFileSync(join(directory, "seed.jsonl"), "utf8");
}

export async function allTargets(): Promise<FuzzTarget[]> {
	return [
		...httpApiTargets(),
		bedrockTarget(),
		proxyTarget(),
		...parserTargets(),
		...sessionTargets(await seedTranscript()),
	];
}
