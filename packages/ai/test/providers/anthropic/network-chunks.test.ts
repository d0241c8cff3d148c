// Many events often arrive in one network read. Each is decoded on its own, in order: an event that
// cannot be read fails the call from that event on, keeping everything before it, and nothing after
// message_stop (a proxy's `data: [DONE]`, stray bytes) can spoil a finished message.
import { describe, expect, it } from "vitest";
import { streamAnthropic } from "../../../src/providers/anthropic/index.js";
import type { Context } from "../../../src/types.js";
import { useWireTestServer } from "../../helpers/wire-server.js";
import {
	anthropicSse,
	blockStop,
	claudeModel,
	messageDelta,
	messageStart,
	messageStop,
	TEST_KEY,
	textDelta,
	textResponseEvents,
	textStart,
} from "./fixtures.js";

const wire = useWireTestServer();

const context: Context = { messages: [{ role: "user", content: "Hello", timestamp: 1 }] };
const model = () => claudeModel({ baseUrl: wire.server.url });

describe("anthropic events that share one network chunk", () => {
	it.each([
		["a proxy's data: [DONE]", "data: [DONE]\n\n"],
		["data that is not JSON", "event: content_block_delta\ndata: {not json\n\n"],
		[
			"an error event",
			'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n',
		],
	])("finishes the message when %s follows message_stop in the same chunk", async (_name, trailer) => {
		wire.server.enqueue({ body: [anthropicSse(textResponseEvents(["Hello ", "world"])) + trailer] });
		const result = await streamAnthropic(model(), context, { apiKey: TEST_KEY }).result();
		expect(result.errorMessage).toBeUndefined();
		expect(result.stopReason).toBe("stop");
		expect(result.content).toEqual([{ type: "text", text: "Hello world" }]);
	});

	it("keeps every event before a malformed one in the same chunk, and reads none after it", async () => {
		const before = anthropicSse([messageStart({ input_tokens: 42 }), textStart(0), textDelta(0, "kept")]);
		const after = anthropicSse([textDelta(0, " never"), blockStop(0), messageDelta("end_turn"), messageStop]);
		wire.server.enqueue({ body: [`${before}event: content_block_delta\ndata: {not json\n\n${after}`] });
		const events: string[] = [];
		const stream = streamAnthropic(model(), context, { apiKey: TEST_KEY, maxRetries: 0 });
		for await (const event of stream) events.push(event.type);
		const result = await stream.result();
		expect(events).toEqual(["start", "text_start", "text_delta", "text_end", "error"]);
		expect(result.content).toEqual([{ type: "text", text: "kept" }]);
		expect(result.usage.input).toBe(42);
		expect(result.errorMessage).toMatch(/^Anthropic sent a stream event that is not JSON/);
	});
});
