// `onRawEvent`: every server-sent event of an answer reaches the caller as the provider sent it,
// before Keel parses it; a callback that throws ends the call like onPayload; unset, it is looked up
// once per attempt, never per event.
import { describe, expect, it } from "vitest";
import { stream, streamSimple } from "../src/index.js";
import type { AssistantMessageEvent, Context, RawStreamEvent, StreamOptions } from "../src/types.js";
import { collectEvents } from "./helpers/messages.js";
import { useWireTestServer } from "./helpers/wire-server.js";
import { chunk, serverModel } from "./providers/openai-completions/fixtures.js";

const wire = useWireTestServer();
const context: Context = { messages: [{ role: "user", content: "Hi", timestamp: 1 }] };
const model = () => serverModel(wire.server.url);

// Written by hand rather than formatted, so the test sees that the data is the server's own text:
// its spacing, a comment line (not an event), a named event and the closing [DONE].
const rawBody = [
	": keep-alive\n\n",
	'data: {"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","content":"He"}}]}\n\n',
	'event: message\ndata: {"id":"c1", "object":"chat.completion.chunk",  "choices":[{"index":0,"delta":{"content":"llo"}}]}\n\n',
	'data: {"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n',
	"data: [DONE]\n\n",
];

describe("onRawEvent", () => {
	it("hands every server-sent event to the callback in order, as sent, [DONE] included", async () => {
		wire.server.enqueue({ body: rawBody });
		const seen: RawStreamEvent[] = [];
		const result = await stream(model(), context, {
			apiKey: "k",
			onRawEvent: (event) => void seen.push({ ...event }),
		}).result();
		expect(result.content).toEqual([{ type: "text", text: "Hello" }]);
		expect(seen).toEqual([
			{
				event: undefined,
				data: '{"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","content":"He"}}]}',
			},
			{
				event: "message",
				data: '{"id":"c1", "object":"chat.completion.chunk",  "choices":[{"index":0,"delta":{"content":"llo"}}]}',
			},
			{
				event: undefined,
				data: '{"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}',
			},
			{ event: undefined, data: "[DONE]" },
		]);
	});

	it("is forwarded by streamSimple", async () => {
		wire.server.enqueue({ body: rawBody });
		let count = 0;
		await streamSimple(model(), context, { apiKey: "k", onRawEvent: () => void count++ }).result();
		expect(count).toBe(4);
	});

	// Like onPayload: the callback's exception is the caller's bug, so the call ends at once with its
	// message, keeps what was streamed, and is not retried (a retry would replay events already seen).
	// The rejection also shows that a returned promise is awaited before its event is parsed: "llo"
	// never reaches the message.
	for (const [name, onRawEvent] of [
		["throws", (event: RawStreamEvent) => failOnSecondChunk(event)],
		["rejects", async (event: RawStreamEvent) => failOnSecondChunk(event)],
	] as const) {
		it(`a callback that ${name} ends the call with one error event, content kept, no retry`, async () => {
			wire.server.enqueue({ body: rawBody }, { body: rawBody });
			const call = stream(model(), context, { apiKey: "k", maxRetries: 2, onRawEvent });
			const events = await collectEvents(call);
			expect(events.map((event) => event.type)).toEqual(["start", "text_start", "text_delta", "text_end", "error"]);
			const result = await call.result();
			expect(result.errorMessage).toBe("raw event hook failed");
			expect(result.content).toEqual([{ type: "text", text: "He" }]);
			expect(wire.server.requests).toHaveLength(1);
		});
	}

	it("when unset, is looked up once per attempt whatever the number of events", async () => {
		const readsFor = async (deltas: number) => {
			const chunks = [chunk({ role: "assistant", content: "" })];
			for (let index = 0; index < deltas; index++) chunks.push(chunk({ content: "x" }));
			chunks.push(chunk({}, { finish: "stop" }));
			wire.server.enqueue({ body: chunks.map((item) => `data: ${JSON.stringify(item)}\n\n`).join("") });
			let reads = 0;
			const options: StreamOptions = { apiKey: "k" };
			Object.defineProperty(options, "onRawEvent", {
				enumerable: true,
				get: () => {
					reads++;
					return undefined;
				},
			});
			const events: AssistantMessageEvent[] = await collectEvents(stream(model(), context, options));
			expect(events.at(-1)?.type).toBe("done");
			return reads;
		};
		const readsForFew = await readsFor(1);
		expect(readsForFew).toBeLessThanOrEqual(2);
		expect(await readsFor(500)).toBe(readsForFew);
	});
});

function failOnSecondChunk(event: RawStreamEvent): void {
	if (event.data.includes('"llo"')) throw new Error("raw event hook failed");
}
