// The shared server-sent-events reader (wire/sse.ts), used by every provider and the
// agent proxy client: the parser fed text pieces, and the body reader fed byte chunks that split
// lines, line ends and multi-byte characters at arbitrary points.
import { describe, expect, it } from "vitest";
import { readServerSentEvents, type ServerSentEvent, ServerSentEventParser } from "../src/index.js";

function parse(pieces: string[], end = true): ServerSentEvent[] {
	const events: ServerSentEvent[] = [];
	const parser = new ServerSentEventParser((event) => events.push(event));
	for (const piece of pieces) parser.push(piece);
	if (end) parser.end();
	return events;
}

function splitEvery(text: string, size: number): string[] {
	const pieces: string[] = [];
	for (let offset = 0; offset < text.length; offset += size) pieces.push(text.slice(offset, offset + size));
	return pieces;
}

function bodyOf(pieces: (string | Uint8Array)[]): ReadableStream<Uint8Array> {
	const encoder = new TextEncoder();
	return new ReadableStream({
		start(controller) {
			for (const piece of pieces) controller.enqueue(typeof piece === "string" ? encoder.encode(piece) : piece);
			controller.close();
		},
	});
}

async function read(pieces: (string | Uint8Array)[], onBytes?: () => void): Promise<ServerSentEvent[]> {
	const events: ServerSentEvent[] = [];
	for await (const batch of readServerSentEvents(bodyOf(pieces), onBytes)) events.push(...batch);
	return events;
}

describe("ServerSentEventParser", () => {
	it("reads named events with their data", () => {
		expect(parse(['event: a\ndata: {"x":1}\n\nevent: b\ndata: 2\n\n'])).toEqual([
			{ event: "a", data: '{"x":1}' },
			{ event: "b", data: "2" },
		]);
	});

	it("gives the same events whatever the chunk boundaries", () => {
		const text = 'event: response.output_text.delta\ndata: {"delta":"héllo"}\r\n\r\ndata: [DONE]\r\rdata: x\n\n';
		const whole = parse([text]);
		expect(whole).toEqual([
			{ event: "response.output_text.delta", data: '{"delta":"héllo"}' },
			{ event: undefined, data: "[DONE]" },
			{ event: undefined, data: "x" },
		]);
		for (let size = 1; size <= 9; size++) expect(parse(splitEvery(text, size))).toEqual(whole);
	});

	it("accepts CRLF and CR line ends, also when CRLF is split across pushes", () => {
		expect(parse(["event: a\r", "\ndata: 1\r\n\r", "\n", "data: 2\r\rdata: 3\n\n"])).toEqual([
			{ event: "a", data: "1" },
			{ event: undefined, data: "2" },
			{ event: undefined, data: "3" },
		]);
	});

	it("mixes newline-only lines with a carriage return later in the same piece", () => {
		expect(parse(["data: 1\n\ndata: 2\n\ndata: 3\r\r"])).toEqual([
			{ event: undefined, data: "1" },
			{ event: undefined, data: "2" },
			{ event: undefined, data: "3" },
		]);
	});

	it("joins multi-line data with newlines, keeps the id and skips comments and unknown fields", () => {
		expect(parse([": keep-alive\nid: 7\nretry: 10\ndata: line one\ndata:line two\n\n"])).toEqual([
			{ event: undefined, data: "line one\nline two", id: "7" },
		]);
	});

	it("keeps a field without a colon as an empty value and only one leading space off the value", () => {
		expect(parse(["data\ndata:  two spaces\n\n"])).toEqual([{ event: undefined, data: "\n two spaces" }]);
	});

	it("ignores events without data and delivers a last event that lacks its blank line on end", () => {
		expect(parse(["event: ping\n\ndata: last"], false)).toEqual([]);
		expect(parse(["event: ping\n\ndata: last"])).toEqual([{ event: undefined, data: "last" }]);
	});

	it("does not carry an event name over to the next event", () => {
		expect(parse(["event: a\ndata: 1\n\ndata: 2\n\n"])).toEqual([
			{ event: "a", data: "1" },
			{ event: undefined, data: "2" },
		]);
	});

	it("reads a long data line split into many small pieces in linear time", () => {
		const value = "x".repeat(1_000_000);
		const pieces = splitEvery(`data: ${value}\n\n`, 64);
		const started = performance.now();
		expect(parse(pieces)).toEqual([{ event: undefined, data: value }]);
		// Quadratic rescanning of the pending line would take minutes here (15,000 pieces × 1 MB).
		expect(performance.now() - started).toBeLessThan(5_000);
	});
});

describe("readServerSentEvents", () => {
	it("reads events split across chunks, inside lines and inside UTF-8 characters", async () => {
		const bytes = new TextEncoder().encode('data: {"t":"é🌍"}\n\n');
		const pieces = [bytes.subarray(0, 3), bytes.subarray(3, 13), bytes.subarray(13, 15), bytes.subarray(15)];
		expect(await read(pieces)).toEqual([{ event: undefined, data: '{"t":"é🌍"}' }]);
	});

	it("gives the same events for every split of the bytes into two chunks", async () => {
		const bytes = new TextEncoder().encode("event: ☕\r\ndata: café\r\n\r\ndata: ok\r\r");
		for (let cut = 1; cut < bytes.length; cut++) {
			expect(await read([bytes.slice(0, cut), bytes.slice(cut)])).toEqual([
				{ event: "☕", data: "café" },
				{ event: undefined, data: "ok" },
			]);
		}
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

	it("calls onBytes for every chunk received, keep-alive comments included", async () => {
		let calls = 0;
		const events = await read([": ping\n\n", ": ping\n\n", "event: x\nid: 1\ndata: payload\n\n"], () => calls++);
		expect(calls).toBe(3);
		expect(events).toEqual([{ event: "x", data: "payload", id: "1" }]);
	});

	it("yields one batch per chunk that completes events, and none for chunks that complete none", async () => {
		const batches: ServerSentEvent[][] = [];
		for await (const batch of readServerSentEvents(bodyOf(["data: 1\n\ndata: 2\n\n", ": ping\n\n", "data: 3\n\n"]))) {
			batches.push(batch);
		}
		expect(batches.map((batch) => batch.map((event) => event.data))).toEqual([["1", "2"], ["3"]]);
	});

	it("cancels the body when the consumer stops early", async () => {
		let cancelled: unknown = "not cancelled";
		const body = new ReadableStream<Uint8Array>({
			pull(controller) {
				controller.enqueue(new TextEncoder().encode("data: more\n\n"));
			},
			cancel(reason) {
				cancelled = reason;
			},
		});
		for await (const batch of readServerSentEvents(body)) {
			expect(batch[0]?.data).toBe("more");
			break;
		}
		expect(cancelled).toBeUndefined();
	});

	it("passes a read error on to the consumer", async () => {
		const body = new ReadableStream<Uint8Array>({
			start(controller) {
				controller.enqueue(new TextEncoder().encode("data: 1\n\n"));
				controller.error(new TypeError("terminated"));
			},
		});
		const seen: string[] = [];
		await expect(
			(async () => {
				for await (const batch of readServerSentEvents(body)) seen.push(...batch.map((event) => event.data));
			})(),
		).rejects.toThrow("terminated");
		expect(seen).toEqual([]);
	});
});
