// Keel reads Bedrock's binary event stream itself (the SDK signs and sends the request): frames
// split by their length prelude, both CRC-32 checksums checked, the string headers read and the
// others skipped, however the network cuts the body.

import { crc32 } from "node:zlib";
import { EventStreamCodec } from "@smithy/eventstream-codec";
import { describe, expect, it } from "vitest";
import {
	crc32InJavaScript,
	EventStreamFormatError,
	EventStreamFrameReader,
} from "../../../src/providers/bedrock-converse-stream/event-stream-frames.js";
import { streamBedrock } from "../../../src/providers/bedrock-converse-stream/index.js";
import type { RawStreamEvent } from "../../../src/types.js";
import { userMessage } from "../../helpers/messages.js";
import { encodeFrame, messageStart, textDelta, textFrames } from "./bedrock-test-server.js";
import { bedrockModel } from "./fixtures.js";
import { useBedrockServer } from "./server-setup.js";

const wire = useBedrockServer();
const context = { messages: [userMessage("Hi")] };
const encoder = new TextEncoder();
const codec = new EventStreamCodec(
	(bytes) => new TextDecoder().decode(bytes),
	(text) => encoder.encode(text),
);

function join(parts: Uint8Array[]): Uint8Array {
	const whole = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
	let offset = 0;
	for (const part of parts) {
		whole.set(part, offset);
		offset += part.length;
	}
	return whole;
}

function readAll(body: Uint8Array, size: number) {
	const reader = new EventStreamFrameReader();
	const frames = [];
	for (let start = 0; start < body.length; start += size)
		frames.push(...reader.push(body.subarray(start, start + size)));
	return { frames, partial: reader.hasPartialFrame };
}

describe("EventStreamFrameReader", () => {
	const body = join([messageStart(), textDelta(0, "héllo 🌍"), textDelta(0, "x".repeat(5000))].map(encodeFrame));

	it.each([1, 3, 7, 4096, body.length])("reads the same frames from chunks of %i bytes", (size) => {
		const { frames, partial } = readAll(body, size);
		expect(partial).toBe(false);
		expect(frames.map((frame) => [frame.messageType, frame.type])).toEqual([
			["event", "messageStart"],
			["event", "contentBlockDelta"],
			["event", "contentBlockDelta"],
		]);
		expect(JSON.parse(new TextDecoder().decode(frames[1].payload))).toEqual({
			contentBlockIndex: 0,
			delta: { text: "héllo 🌍" },
		});
	});

	it("skips headers of the other value types and reads an error frame's code and message", () => {
		const frame = codec.encode({
			headers: {
				":message-type": { type: "string", value: "error" },
				flag: { type: "boolean", value: true },
				count: { type: "integer", value: 7 },
				stamp: { type: "timestamp", value: new Date(0) },
				blob: { type: "binary", value: new Uint8Array([1, 2, 3]) },
				":error-code": { type: "string", value: "InternalFailure" },
				":error-message": { type: "string", value: "it broke" },
			},
			body: new Uint8Array(0),
		});
		const [read] = readAll(frame, frame.length).frames;
		expect(read).toMatchObject({ messageType: "error", type: "InternalFailure", errorMessage: "it broke" });
	});

	it("computes CRC-32 in JavaScript like zlib, for Node versions without zlib.crc32", () => {
		const bytes = Uint8Array.from({ length: 70_000 }, (_, index) => (index * 7919) % 256);
		expect(crc32InJavaScript(bytes)).toBe(crc32(bytes) >>> 0);
		expect(crc32InJavaScript(new Uint8Array(0))).toBe(0);
	});

	it("says when the body ends inside a frame", () => {
		expect(readAll(body.subarray(0, body.length - 1), 100).partial).toBe(true);
		expect(readAll(body.subarray(0, 2), 100).partial).toBe(true);
	});

	it("rejects a frame whose checksum does not match, and an impossible length", () => {
		const corrupt = encodeFrame(textDelta(0, "hello")).slice();
		corrupt[corrupt.length - 6] ^= 0xff;
		const reader = new EventStreamFrameReader();
		// The frame before the fault is still returned; nothing after it is read.
		const frames = reader.push(join([encodeFrame(messageStart()), corrupt, encodeFrame(messageStart())]));
		expect(frames.map((frame) => frame.type)).toEqual(["messageStart"]);
		expect(reader.error).toBeInstanceOf(EventStreamFormatError);
		expect(reader.error?.message).toBe("an event stream frame's checksum does not match");
		expect(reader.push(encodeFrame(messageStart()))).toEqual([]);
		const lengths = new EventStreamFrameReader();
		lengths.push(new Uint8Array([0, 0, 0, 3, 0, 0, 0, 0]));
		expect(lengths.error?.message).toBe("an event stream frame declares 3 bytes");
	});
});

describe("Bedrock's event stream read by Keel", () => {
	it("reports each frame to onRawEvent as its event type and JSON payload", async () => {
		const server = await wire.start(() => ({ frames: textFrames("ok") }));
		const raw: RawStreamEvent[] = [];
		const message = await streamBedrock(bedrockModel({ baseUrl: server.url }), context, {
			onRawEvent: (event) => {
				raw.push(event);
			},
		}).result();
		expect(message.stopReason).toBe("stop");
		expect(raw.map((event) => event.event)).toEqual([
			"messageStart",
			"contentBlockDelta",
			"contentBlockStop",
			"messageStop",
			"metadata",
		]);
		expect(JSON.parse(raw[1].data)).toEqual({ contentBlockIndex: 0, delta: { text: "ok" } });
	});

	it("ends a corrupt frame with one error naming the problem, keeping the content", async () => {
		const corrupt = encodeFrame(textDelta(0, " more")).slice();
		corrupt[corrupt.length - 6] ^= 0xff;
		const server = await wire.start(() => ({ frames: [messageStart(), textDelta(0, "Before"), { bytes: corrupt }] }));
		const message = await streamBedrock(bedrockModel({ baseUrl: server.url }), context, { maxRetries: 0 }).result();
		expect(message.errorMessage).toBe(
			"Malformed Bedrock event stream: an event stream frame's checksum does not match",
		);
		expect(message.content).toEqual([{ type: "text", text: "Before" }]);
	});

	it("ends a body cut inside a frame as a stream cut short", async () => {
		const cut = encodeFrame(textDelta(0, " more")).subarray(0, 10);
		const server = await wire.start(() => ({ frames: [messageStart(), textDelta(0, "Before"), { bytes: cut }] }));
		const message = await streamBedrock(bedrockModel({ baseUrl: server.url }), context, { maxRetries: 0 }).result();
		expect(message.errorMessage).toBe(
			"The Bedrock stream ended before the response was finished (no messageStop event)",
		);
		expect(message.content).toEqual([{ type: "text", text: "Before" }]);
	});
});
