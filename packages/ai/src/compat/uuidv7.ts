/**
 * A version 7 UUID (RFC 9562 section 5.7): 48 bits of Unix milliseconds, then random bits, so ids
 * sort by creation time. Uses Web Crypto, present in Node 20, browsers and Workers.
 */
export function uuidv7(timestampMs: number = Date.now()): string {
	if (!Number.isSafeInteger(timestampMs) || timestampMs < 0 || timestampMs >= 2 ** 48) {
		throw new RangeError(`uuidv7: timestamp must be an integer from 0 to 2^48 - 1 milliseconds, got ${timestampMs}`);
	}
	const bytes = new Uint8Array(16);
	crypto.getRandomValues(bytes);
	let time = timestampMs;
	for (let index = 5; index >= 0; index--) {
		bytes[index] = time % 256;
		time = Math.floor(time / 256);
	}
	bytes[6] = 0x70 | (bytes[6] & 0x0f); // version 7
	bytes[8] = 0x80 | (bytes[8] & 0x3f); // variant 10
	const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
