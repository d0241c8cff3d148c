import { describe, expect, it } from "vitest";
import { readServerSentEvents, type ServerSentEvent } from "../../../src/providers/openai-completions/sse-reader.js";

function bodyOf(pieces: (string | Uint8Array)[]): ReadableStream<Uint8Array> {
	const encoder = new TextEncoder();
	return new ReadableStream({
		start(controller) {
			for (const piece of pieces) controller.enqueue(typeof piece === "string" ? encoder.encode(piece) : piece);
			controller.close();
		},
	});
}

async function read(pieces: (string | Uint8Array)[]): Promise<ServerSentEvent[]> {
	const events: ServerSentEvent[] = [];
	for await (const batch of readServerSentEvents(bodyOf(pieces))) events.push(...batch);
	return events;
}

describe("readServerSentEvents", () => {
	it("reads events split across chunks, inside lines and inside UTF-8 characters", async () => {
		const bytes = new TextEncoder().encode('data: {"t":"é🌍"}\n\n');
		const pieces = [bytes.subarray(0, 3), bytes.subarray(3, 13), bytes.subarray(13, 15), bytes.subarray(15)];
		expect(await read(pieces)).toEqual([{ event: undefined, data: '{"t":"é🌍"}' }]);
	});

	it("skips comments (OpenRouter keep-alives), accepts CRLF, names events and joins data lines", async () => {
		const events = await read([": OPENROUTER PROCESSING\r\n\r\n", "event: message\r\ndata: a\r\ndata: b\r\n\r\n"]);
		expect(events).toEqual([{ event: "message", data: "a\nb" }]);
	});

	it("keeps a last event that the server closed without a blank line", async () => {
		expect(await read(["data: 1\n\n", "data: 2"])).toEqual([
			{ event: undefined, data: "1" },
			{ event: undefined, data: "2" },
		]);
	});

	it("calls onBytes for every chunk, comments included", async () => {
		let calls = 0;
		for await (const _ of readServerSentEvents(bodyOf([": ping\n\n", ": ping\n\n", "data: x\n\n"]), () => calls++)) {
			// drain
		}
		expect(calls).toBe(3);
	});
});
