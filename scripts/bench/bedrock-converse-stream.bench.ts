// bedrock-converse-stream against a local HTTP server playing Bedrock's binary event stream, each
// row next to the floor: a raw `fetch` of the same body, the frames split and decoded with
// @smithy/eventstream-codec, each payload JSON.parsed. Keel's provider adds SigV4 signing, its own
// frame reader and the decoder.
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import type { EventStreamCodec as Codec } from "@smithy/eventstream-codec";
import { streamBedrock } from "../../packages/ai/src/providers/bedrock-converse-stream/index.js";
import {
	type BedrockFrame,
	blockStop,
	encodeFrame,
	messageStart,
	messageStop,
	metadata,
	startBedrockServer,
	textDelta,
	toolUseDelta,
	toolUseStart,
} from "../../packages/ai/test/providers/bedrock-converse-stream/bedrock-test-server.js";
import { medianMs, printTable } from "./measure.js";
import { assertStreamSucceeded, benchModel, toolArgumentDeltas } from "./provider-wire.js";

const REPEAT = 9;
const MODEL_ID = "anthropic.claude-bench-v1:0";

function fromPackage<T>(name: string): Promise<T> {
	const resolve = createRequire(new URL("../../packages/ai/package.json", import.meta.url)).resolve;
	return import(pathToFileURL(resolve(name)).href) as Promise<T>;
}

function concat(frames: BedrockFrame[]): Uint8Array {
	const encoded = frames.map(encodeFrame);
	const whole = new Uint8Array(encoded.reduce((length, frame) => length + frame.length, 0));
	let offset = 0;
	for (const frame of encoded) {
		whole.set(frame, offset);
		offset += frame.length;
	}
	return whole;
}

function textBody(deltas: number): Uint8Array {
	const frames = [messageStart()];
	for (let index = 0; index < deltas; index++) frames.push(textDelta(0, "word "));
	frames.push(blockStop(0), messageStop("end_turn"), metadata({ inputTokens: 10, outputTokens: 9, totalTokens: 19 }));
	return concat(frames);
}

function toolBody(argumentBytes: number): Uint8Array {
	const frames = [messageStart(), toolUseStart(0, "tooluse_bench", "write")];
	for (const input of toolArgumentDeltas(argumentBytes).deltas) frames.push(toolUseDelta(0, input));
	frames.push(blockStop(0), messageStop("tool_use"), metadata({ inputTokens: 10, outputTokens: 9, totalTokens: 19 }));
	return concat(frames);
}

/** The floor: one `fetch`, the body's frames split by their length prelude, decoded, parsed. */
async function floor(url: string, codec: Codec): Promise<number> {
	const response = await fetch(`${url}/model/${MODEL_ID}/converse-stream`, { method: "POST", body: "{}" });
	let pending = new Uint8Array(0);
	let events = 0;
	for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
		const joined = new Uint8Array(pending.length + chunk.length);
		joined.set(pending);
		joined.set(chunk, pending.length);
		let offset = 0;
		while (joined.length - offset >= 4) {
			const length = new DataView(joined.buffer, joined.byteOffset + offset, 4).getUint32(0);
			if (joined.length - offset < length) break;
			const message = codec.decode(joined.subarray(offset, offset + length));
			JSON.parse(new TextDecoder().decode(message.body));
			events++;
			offset += length;
		}
		pending = joined.subarray(offset);
	}
	return events;
}

export default async function (): Promise<void> {
	process.env.AWS_ACCESS_KEY_ID = "AKIDBENCH";
	process.env.AWS_SECRET_ACCESS_KEY = "bench-secret";
	process.env.AWS_REGION = "us-east-1";
	const { EventStreamCodec } = await fromPackage<{ EventStreamCodec: typeof Codec }>("@smithy/eventstream-codec");
	const codec = new EventStreamCodec(
		(bytes) => new TextDecoder().decode(bytes),
		(text) => new TextEncoder().encode(text),
	);
	let body = new Uint8Array(0);
	const server = await startBedrockServer(() => ({ frames: [{ bytes: body }] }));
	const model = benchModel("bedrock-converse-stream", server.url, { id: MODEL_ID, provider: "amazon-bedrock" });
	const context = { messages: [{ role: "user" as const, content: "bench", timestamp: 0 }] };
	const cases = [
		{ name: "text, 20k deltas", body: textBody(20_000) },
		{ name: "tool args 16 KB / 64 B deltas", body: toolBody(16 * 1024) },
		{ name: "tool args 64 KB / 64 B deltas", body: toolBody(64 * 1024) },
		{ name: "tool args 256 KB / 64 B deltas", body: toolBody(256 * 1024) },
	];
	const rows: Record<string, string | number>[] = [];
	try {
		for (const benchCase of cases) {
			body = benchCase.body;
			const floorMs = await medianMs(() => floor(server.url, codec), REPEAT);
			const providerMs = await medianMs(async () => {
				assertStreamSucceeded(await streamBedrock(model, context, { cacheRetention: "none" }).result());
			}, REPEAT);
			rows.push({
				case: benchCase.name,
				"body KB": Math.round(benchCase.body.length / 1024),
				"floor ms": floorMs,
				"provider ms": providerMs,
				"× floor": providerMs / floorMs,
			});
		}
	} finally {
		await server.close();
	}
	printTable(rows);
}
