// The SSE reader keeps the `id:` field (servers that let a client resume send it), as the SSE format
// says: an id stays set for later events until another `id:` line changes it.
import { describe, expect, it } from "vitest";
import { type ServerSentEvent, ServerSentEventParser } from "../src/wire/sse.js";

function parse(text: string): ServerSentEvent[] {
	const events: ServerSentEvent[] = [];
	const parser = new ServerSentEventParser((event) => events.push(event));
	parser.push(text);
	parser.end();
	return events;
}

describe("SSE event ids", () => {
	it("gives each event the last id set, and none before the first id line", () => {
		expect(parse("data: a\n\nid: 1\ndata: b\n\ndata: c\n\nid: 7\ndata: d\n\n")).toEqual([
			{ event: undefined, data: "a" },
			{ event: undefined, data: "b", id: "1" },
			{ event: undefined, data: "c", id: "1" },
			{ event: undefined, data: "d", id: "7" },
		]);
	});

	it("ignores an id containing NUL", () => {
		expect(parse("id: 2\ndata: a\n\nid: 3\0\ndata: b\n\n").map((event) => event.id)).toEqual(["2", "2"]);
	});
});
