import { describe, expect, it } from "vitest";
import { type SseMessage, SseParser } from "../../../src/providers/openai-responses/sse-parser.js";

function parse(pieces: string[], end = true): SseMessage[] {
	const messages: SseMessage[] = [];
	const parser = new SseParser((message) => messages.push(message));
	for (const piece of pieces) parser.push(piece);
	if (end) parser.end();
	return messages;
}

describe("SseParser", () => {
	it("reads named events with their data", () => {
		expect(parse(['event: a\ndata: {"x":1}\n\nevent: b\ndata: 2\n\n'])).toEqual([
			{ event: "a", data: '{"x":1}' },
			{ event: "b", data: "2" },
		]);
	});

	it("gives the same events whatever the chunk boundaries", () => {
		const text = 'event: response.output_text.delta\ndata: {"delta":"héllo"}\n\ndata: [DONE]\n\n';
		const whole = parse([text]);
		for (let size = 1; size <= 9; size++) {
			const pieces: string[] = [];
			for (let offset = 0; offset < text.length; offset += size) pieces.push(text.slice(offset, offset + size));
			expect(parse(pieces)).toEqual(whole);
		}
		expect(whole).toEqual([
			{ event: "response.output_text.delta", data: '{"delta":"héllo"}' },
			{ event: undefined, data: "[DONE]" },
		]);
	});

	it("accepts CRLF and CR line ends, also when CRLF is split across chunks", () => {
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

	it("joins multi-line data with newlines and skips comments and unknown fields", () => {
		expect(parse([": keep-alive\nid: 7\nretry: 10\ndata: line one\ndata:line two\n\n"])).toEqual([
			{ event: undefined, data: "line one\nline two" },
		]);
	});

	it("ignores events without data and delivers a last event that lacks its blank line on end", () => {
		expect(parse(["event: ping\n\ndata: last"], false)).toEqual([]);
		expect(parse(["event: ping\n\ndata: last"])).toEqual([{ event: undefined, data: "last" }]);
	});

	it("handles a long data line split into many small pieces", () => {
		const value = "x".repeat(100_000);
		const text = `data: ${value}\n\n`;
		const pieces: string[] = [];
		for (let offset = 0; offset < text.length; offset += 64) pieces.push(text.slice(offset, offset + 64));
		expect(parse(pieces)).toEqual([{ event: undefined, data: value }]);
	});
});
