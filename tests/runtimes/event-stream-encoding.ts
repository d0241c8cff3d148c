// Encodes `application/vnd.amazon.eventstream` frames as Bedrock sends them, for the runtime tests'
// Bedrock answer: total length, headers length, CRC-32 of those 8 bytes, string headers, payload,
// CRC-32 of the whole frame before it; integers big-endian.
// @see https://docs.aws.amazon.com/transcribe/latest/dg/streaming-setting-up.html#streaming-event-stream
import { crc32 } from "node:zlib";

const encoder = new TextEncoder();

/** One event frame: `:message-type` event, `:event-type`, a JSON payload. */
export function encodeEventFrame(eventType: string, body: unknown): Uint8Array {
	const headers: Uint8Array[] = [];
	for (const [name, value] of [
		[":message-type", "event"],
		[":event-type", eventType],
		[":content-type", "application/json"],
	]) {
		const nameBytes = encoder.encode(name);
		const valueBytes = encoder.encode(value);
		const header = new Uint8Array(1 + nameBytes.length + 1 + 2 + valueBytes.length);
		header[0] = nameBytes.length;
		header.set(nameBytes, 1);
		header[1 + nameBytes.length] = 7; // string
		new DataView(header.buffer).setUint16(2 + nameBytes.length, valueBytes.length);
		header.set(valueBytes, 4 + nameBytes.length);
		headers.push(header);
	}
	const headersLength = headers.reduce((length, header) => length + header.length, 0);
	const payload = encoder.encode(JSON.stringify(body));
	const totalLength = 12 + headersLength + payload.length + 4;
	const frame = new Uint8Array(totalLength);
	const view = new DataView(frame.buffer);
	view.setUint32(0, totalLength);
	view.setUint32(4, headersLength);
	view.setUint32(8, crc32(frame.subarray(0, 8)));
	let offset = 12;
	for (const header of headers) {
		frame.set(header, offset);
		offset += header.length;
	}
	frame.set(payload, offset);
	view.setUint32(totalLength - 4, crc32(frame.subarray(0, totalLength - 4)));
	return frame;
}

/** Frames joined into one body. */
export function concatenate(frames: Uint8Array[]): Uint8Array {
	const body = new Uint8Array(frames.reduce((length, frame) => length + frame.length, 0));
	let offset = 0;
	for (const frame of frames) {
		body.set(frame, offset);
		offset += frame.length;
	}
	return body;
}
