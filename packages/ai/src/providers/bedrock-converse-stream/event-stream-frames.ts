// Bedrock's response body, `application/vnd.amazon.eventstream`, read frame by frame. Each frame:
// total length (4 bytes), headers length (4), CRC-32 of those 8 bytes (4), headers, payload, CRC-32
// of everything before it (4); integers big-endian. A header is a name (1-byte length, UTF-8), a
// type byte and a value. Keel reads the frames itself rather than through the SDK's event iterator,
// which takes several async steps and a schema walk per event (about 3–4 times the cost of the
// bytes themselves on 20k small events); the SDK still signs and sends the request.
// @see https://docs.aws.amazon.com/AmazonS3/latest/API/RESTSelectObjectAppendix.html
// @see https://docs.aws.amazon.com/transcribe/latest/dg/streaming-setting-up.html#streaming-event-stream

/** One frame: the headers Keel reads and the payload bytes. */
export interface EventStreamFrame {
	/** `:message-type`: "event", "exception" or "error". */
	messageType: string | undefined;
	/** `:event-type` of an event, `:exception-type` of an exception, `:error-code` of an error. */
	type: string | undefined;
	/** `:error-message` of an error frame. */
	errorMessage: string | undefined;
	payload: Uint8Array;
}

const PRELUDE_LENGTH = 12;
const CHECKSUM_LENGTH = 4;
/** Frames larger than this are refused: Bedrock's events are a few KB; a corrupt length must not allocate gigabytes. */
const MAX_FRAME_LENGTH = 16 * 1024 * 1024;

const CRC_TABLE = (() => {
	const table = new Uint32Array(256);
	for (let index = 0; index < 256; index++) {
		let value = index;
		for (let bit = 0; bit < 8; bit++) value = value & 1 ? 0xedb88320 ^ (value >>> 1) : value >>> 1;
		table[index] = value >>> 0;
	}
	return table;
})();

/** CRC-32 (IEEE) with a table, for Node versions before zlib.crc32. */
export function crc32InJavaScript(bytes: Uint8Array): number {
	let crc = 0xffffffff;
	for (let index = 0; index < bytes.length; index++) crc = CRC_TABLE[(crc ^ bytes[index]) & 0xff] ^ (crc >>> 8);
	return (crc ^ 0xffffffff) >>> 0;
}

// Node's own CRC-32 (zlib.crc32, Node 20.15 and later) is several times faster than the table
// loop; it is looked up through process.getBuiltinModule, so no bundle sees a node: import.
const nativeCrc32 = (
	(globalThis.process as { getBuiltinModule?: (id: string) => unknown } | undefined)?.getBuiltinModule?.("node:zlib") as
		| { crc32?: (data: Uint8Array) => number }
		| undefined
)?.crc32;

function crc32(bytes: Uint8Array, start: number, end: number): number {
	const range = bytes.subarray(start, end);
	return nativeCrc32 ? nativeCrc32(range) >>> 0 : crc32InJavaScript(range);
}

/** Thrown for bytes that are not a valid event stream. */
export class EventStreamFormatError extends Error {
	override name = "EventStreamFormatError";
}

const textDecoder = new TextDecoder();

/** Header names and values are short and ASCII in practice: read those without a TextDecoder call. */
function decodeHeaderText(bytes: Uint8Array, start: number, end: number): string {
	let text = "";
	for (let index = start; index < end; index++) {
		const byte = bytes[index];
		if (byte >= 0x80) return textDecoder.decode(bytes.subarray(start, end));
		text += String.fromCharCode(byte);
	}
	return text;
}

/** Byte sizes of the fixed-size header value types (0–5, 8, 9); 6 and 7 carry a 2-byte length. */
const FIXED_VALUE_LENGTH: Record<number, number> = { 0: 0, 1: 0, 2: 1, 3: 2, 4: 4, 5: 8, 8: 8, 9: 16 };

function readFrame(bytes: Uint8Array, view: DataView, start: number, length: number): EventStreamFrame {
	const headersLength = view.getUint32(start + 4);
	if (view.getUint32(start + 8) !== crc32(bytes, start, start + 8)) {
		throw new EventStreamFormatError("an event stream frame's prelude checksum does not match");
	}
	const end = start + length;
	if (view.getUint32(end - CHECKSUM_LENGTH) !== crc32(bytes, start, end - CHECKSUM_LENGTH)) {
		throw new EventStreamFormatError("an event stream frame's checksum does not match");
	}
	const headersEnd = start + PRELUDE_LENGTH + headersLength;
	if (headersEnd > end - CHECKSUM_LENGTH)
		throw new EventStreamFormatError("an event stream frame's headers overrun it");
	const frame: EventStreamFrame = { messageType: undefined, type: undefined, errorMessage: undefined, payload: bytes };
	let position = start + PRELUDE_LENGTH;
	while (position < headersEnd) {
		const nameLength = bytes[position];
		const name = decodeHeaderText(bytes, position + 1, position + 1 + nameLength);
		position += 1 + nameLength;
		const valueType = bytes[position];
		position += 1;
		if (valueType === 6 || valueType === 7) {
			const valueLength = view.getUint16(position);
			position += 2;
			if (valueType === 7) {
				const value = decodeHeaderText(bytes, position, position + valueLength);
				if (name === ":message-type") frame.messageType = value;
				else if (name === ":event-type" || name === ":exception-type" || name === ":error-code") frame.type = value;
				else if (name === ":error-message") frame.errorMessage = value;
			}
			position += valueLength;
		} else {
			const valueLength = FIXED_VALUE_LENGTH[valueType];
			if (valueLength === undefined) throw new EventStreamFormatError(`unknown event stream header type ${valueType}`);
			position += valueLength;
		}
	}
	if (position !== headersEnd) throw new EventStreamFormatError("an event stream frame's headers overrun it");
	frame.payload = bytes.subarray(headersEnd, end - CHECKSUM_LENGTH);
	return frame;
}

/**
 * Splits a body arriving in chunks into frames. Whole frames inside a chunk are read in place; a
 * frame cut by a chunk boundary is copied once into a buffer of its declared length, so the work is
 * linear in the body's length however the body is cut.
 */
export class EventStreamFrameReader {
	/** A frame being filled across chunks, allocated at its full length. */
	private frame: Uint8Array | undefined;
	private filled = 0;
	/** Up to 3 bytes of a length prefix cut by a chunk boundary. */
	private lengthBytes: number[] = [];
	/**
	 * Set when the bytes stop being a valid event stream. `push` still returns the frames before the
	 * fault, so their content is kept; the reader reads nothing after it.
	 */
	error: EventStreamFormatError | undefined;

	/** The frames completed by this chunk, in order, up to a fault (then `error` is set). */
	push(chunk: Uint8Array): EventStreamFrame[] {
		const frames: EventStreamFrame[] = [];
		if (this.error) return frames;
		try {
			this.read(chunk, frames);
		} catch (error) {
			if (!(error instanceof EventStreamFormatError)) throw error;
			this.error = error;
		}
		return frames;
	}

	private read(chunk: Uint8Array, frames: EventStreamFrame[]): void {
		let offset = 0;
		for (;;) {
			if (this.frame) {
				const take = Math.min(this.frame.length - this.filled, chunk.length - offset);
				this.frame.set(chunk.subarray(offset, offset + take), this.filled);
				this.filled += take;
				offset += take;
				if (this.filled < this.frame.length) return;
				const whole = this.frame;
				this.frame = undefined;
				frames.push(readFrame(whole, new DataView(whole.buffer), 0, whole.length));
			} else if (this.lengthBytes.length > 0) {
				while (this.lengthBytes.length < 4 && offset < chunk.length) this.lengthBytes.push(chunk[offset++]);
				if (this.lengthBytes.length < 4) return;
				const [b0, b1, b2, b3] = this.lengthBytes;
				this.lengthBytes = [];
				this.startFrame(((b0 << 24) | (b1 << 16) | (b2 << 8) | b3) >>> 0, new Uint8Array([b0, b1, b2, b3]));
			} else {
				break;
			}
		}
		const view = new DataView(chunk.buffer, chunk.byteOffset, chunk.byteLength);
		while (chunk.length - offset >= 4) {
			const length = view.getUint32(offset);
			if (chunk.length - offset < length) {
				this.startFrame(length, chunk.subarray(offset));
				return;
			}
			checkLength(length);
			frames.push(readFrame(chunk, view, offset, length));
			offset += length;
		}
		for (; offset < chunk.length; offset++) this.lengthBytes.push(chunk[offset]);
		return;
	}

	/** True when the body ended inside a frame. */
	get hasPartialFrame(): boolean {
		return this.frame !== undefined || this.lengthBytes.length > 0;
	}

	private startFrame(length: number, firstBytes: Uint8Array): void {
		checkLength(length);
		this.frame = new Uint8Array(length);
		this.frame.set(firstBytes);
		this.filled = firstBytes.length;
	}
}

function checkLength(length: number): void {
	if (length < PRELUDE_LENGTH + CHECKSUM_LENGTH || length > MAX_FRAME_LENGTH) {
		throw new EventStreamFormatError(`an event stream frame declares ${length} bytes`);
	}
}
