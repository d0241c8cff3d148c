// readSseData: the client's SSE framing, fed in chunks that split lines, line endings and
// multi-byte characters at arbitrary points.
import { describe, expect, it } from "vitest";
import { readSseData } from "../src/proxy/sse-reader.js";

function bodyOf(chunks: (string | Uint8Array)[]): ReadableStream<Uint8Array> {
	const encoder = new TextEncoder();
	return new ReadableStream({
		start(controller) {
			for (const chunk of chunks) controller.enqueue(typeof chunk === "string" ? encoder.encode(chunk) : chunk);
			controller.close();
		},
	});
}

async function read(chunks: (string | Uint8Array)[], onActivity?: () => void): Promise<string[]> {
	const data: string[] = [];
	for await (const payload of readSseData(bodyOf(chunks), onActivity)) data.push(payload);
	return data;
}

describe("readSseData", () => {
	it("joins events split across chunks, with \\n, \\r\\n and \\r line endings", async () => {
		expect(await read(['data: {"a"', ":1}\n", "\ndata: two\r", "\n\r\ndata: three\r\rdata: four\n\n"])).toEqual([
			'{"a":1}',
			"two",
			"three",
			"four",
		]);
	});

	it("keeps a multi-byte character split between chunks intact", async () => {
		const bytes = new TextEncoder().encode("data: café ☕\n\n");
		const cut = bytes.length - 4;
		expect(await read([bytes.slice(0, cut), bytes.slice(cut)])).toEqual(["café ☕"]);
	});

	it("ignores comments and other fields but reports them as activity", async () => {
		let activity = 0;
		const data = await read([": ping\n\n", "event: x\nid: 1\ndata: payload\n\n"], () => activity++);
		expect(data).toEqual(["payload"]);
		expect(activity).toBe(2);
	});

	it("joins multi-line data and delivers a last event without a trailing blank line", async () => {
		expect(await read(["data: line one\ndata: line two\n\ndata:last"])).toEqual(["line one\nline two", "last"]);
	});
});
