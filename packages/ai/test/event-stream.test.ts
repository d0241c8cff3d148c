import { describe, expect, it } from "vitest";
import type { AssistantMessage, AssistantMessageEvent } from "../src/types.js";
import {
	AssistantMessageEventStream,
	createAssistantMessageEventStream,
	createEmptyAssistantMessage,
	EventStream,
} from "../src/utils/event-stream.js";

type NumberEvent = { kind: "value"; value: number } | { kind: "end"; total: number };

/** A stream of numbers whose terminal event carries a total. */
function numberStream(fallback?: () => number): EventStream<NumberEvent, number> {
	return new EventStream<NumberEvent, number>(
		(event) => event.kind === "end",
		(event) => (event.kind === "end" ? event.total : Number.NaN),
		fallback,
	);
}

const value = (number: number): NumberEvent => ({ kind: "value", value: number });

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
	const events: T[] = [];
	for await (const event of iterable) events.push(event);
	return events;
}

function messageWithText(text: string): AssistantMessage {
	const message = createEmptyAssistantMessage("faux", "faux", "faux-model");
	message.content.push({ type: "text", text });
	return message;
}

describe("EventStream: buffering and order", () => {
	it("buffers events pushed before the consumer starts and yields them in order", async () => {
		const stream = numberStream();
		stream.push(value(1));
		stream.push(value(2));
		stream.push({ kind: "end", total: 3 });
		expect(await collect(stream)).toEqual([value(1), value(2), { kind: "end", total: 3 }]);
		expect(await stream.result()).toBe(3);
	});

	it("drains 100,000 buffered events completely and in order", async () => {
		const stream = numberStream();
		const count = 100_000;
		for (let index = 0; index < count; index++) stream.push(value(index));
		stream.push({ kind: "end", total: count });
		let expected = 0;
		let outOfOrder = 0;
		for await (const event of stream) {
			if (event.kind === "end") break;
			if (event.value !== expected) outOfOrder++;
			expected++;
		}
		expect(expected).toBe(count);
		expect(outOfOrder).toBe(0);
	});

	it("keeps order when pushing and consuming interleave across the queue's compaction", async () => {
		const stream = numberStream();
		const iterator = stream[Symbol.asyncIterator]();
		const received: number[] = [];
		let next = 0;
		for (const [pushCount, pullCount] of [
			[5000, 3000],
			[5000, 6000],
			[2000, 2500],
		]) {
			for (let index = 0; index < pushCount; index++) stream.push(value(next++));
			for (let index = 0; index < pullCount; index++) {
				const result = await iterator.next();
				if (!result.done && result.value.kind === "value") received.push(result.value.value);
			}
		}
		stream.end(next);
		for (let result = await iterator.next(); !result.done; result = await iterator.next()) {
			if (result.value.kind === "value") received.push(result.value.value);
		}
		expect(received).toEqual(Array.from({ length: next }, (_, index) => index));
	});

	it("hands an event straight to a consumer that is already waiting", async () => {
		const stream = numberStream();
		const iterator = stream[Symbol.asyncIterator]();
		const pending = iterator.next();
		stream.push(value(7));
		expect(await pending).toEqual({ value: value(7), done: false });
	});
});

describe("EventStream: the end of a stream", () => {
	it("yields the terminal event, settles result() from it and then finishes", async () => {
		const stream = numberStream();
		const consumed = collect(stream);
		stream.push(value(1));
		stream.push({ kind: "end", total: 42 });
		expect(await consumed).toEqual([value(1), { kind: "end", total: 42 }]);
		expect(await stream.result()).toBe(42);
		expect(stream.isDone).toBe(true);
	});

	it("ignores pushes after the terminal event and after end()", async () => {
		const afterTerminal = numberStream();
		afterTerminal.push({ kind: "end", total: 1 });
		afterTerminal.push(value(99));
		afterTerminal.push({ kind: "end", total: 2 });
		expect(await collect(afterTerminal)).toEqual([{ kind: "end", total: 1 }]);
		expect(await afterTerminal.result()).toBe(1);

		const afterEnd = numberStream();
		afterEnd.end(5);
		afterEnd.push(value(99));
		expect(await collect(afterEnd)).toEqual([]);
		expect(await afterEnd.result()).toBe(5);
	});

	it("end(result) settles result() with that result and wakes a waiting consumer", async () => {
		const stream = numberStream();
		const consumed = collect(stream);
		stream.push(value(1));
		stream.end(10);
		expect(await consumed).toEqual([value(1)]);
		expect(await stream.result()).toBe(10);
	});

	it("end(result) after a terminal event keeps the terminal event's result", async () => {
		const stream = numberStream();
		stream.push({ kind: "end", total: 1 });
		stream.end(2);
		expect(await stream.result()).toBe(1);
	});

	it("end() without a terminal event uses the fallback result", async () => {
		const stream = numberStream(() => -1);
		stream.push(value(1));
		stream.end();
		expect(await stream.result()).toBe(-1);
		expect(await collect(stream)).toEqual([value(1)]);
	});

	it("end() without a terminal event, result or fallback rejects result() instead of waiting forever", async () => {
		const stream = numberStream();
		stream.end();
		await expect(stream.result()).rejects.toThrow("Stream ended without a terminal event or result");
	});

	it("a stream ended before anyone iterates still yields what was buffered, then ends", async () => {
		const stream = numberStream();
		stream.push(value(1));
		stream.end(1);
		expect(await collect(stream)).toEqual([value(1)]);
		// Once drained, a new iterator finishes at once rather than waiting.
		expect(await collect(stream)).toEqual([]);
	});

	it("a stream ended with nothing pushed finishes every waiting consumer", async () => {
		const stream = numberStream(() => 0);
		const first = collect(stream);
		const second = collect(stream);
		stream.end();
		expect(await Promise.all([first, second])).toEqual([[], []]);
		expect(await stream.result()).toBe(0);
	});
});

describe("EventStream: several consumers", () => {
	it("two iterators share one queue: each event goes to exactly one of them", async () => {
		const stream = numberStream();
		const first = collect(stream);
		const second = collect(stream);
		for (let index = 0; index < 10; index++) stream.push(value(index));
		stream.push({ kind: "end", total: 10 });
		const [firstEvents, secondEvents] = await Promise.all([first, second]);
		const values = [...firstEvents, ...secondEvents]
			.flatMap((event) => (event.kind === "value" ? [event.value] : []))
			.sort((a, b) => a - b);
		expect(values).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
		expect(firstEvents.length + secondEvents.length).toBe(11);
	});

	it("a consumer that breaks early leaves the remaining events for the next iterator", async () => {
		const stream = numberStream();
		for (let index = 0; index < 5; index++) stream.push(value(index));
		stream.end(5);
		for await (const event of stream) {
			if (event.kind === "value" && event.value === 1) break;
		}
		expect(await collect(stream)).toEqual([value(2), value(3), value(4)]);
	});
});

describe("AssistantMessageEventStream", () => {
	it("settles result() with the done event's message", async () => {
		const stream = createAssistantMessageEventStream();
		const message = messageWithText("hello");
		stream.push({ type: "start", partial: message });
		stream.push({ type: "done", reason: "stop", message });
		expect(await stream.result()).toBe(message);
		expect((await collect(stream)).map((event) => event.type)).toEqual(["start", "done"]);
	});

	it("settles result() with the error event's message (never rejects)", async () => {
		const stream = new AssistantMessageEventStream();
		const failed = { ...messageWithText("partial"), stopReason: "error" as const, errorMessage: "boom" };
		stream.push({ type: "error", reason: "error", error: failed });
		expect(await stream.result()).toBe(failed);
	});

	it("end() without done or error settles an error result that keeps the last partial's content", async () => {
		const stream = createAssistantMessageEventStream();
		const partial = messageWithText("half an ans");
		const events: AssistantMessageEvent[] = [
			{ type: "start", partial },
			{ type: "text_start", contentIndex: 0, partial },
			{ type: "text_delta", contentIndex: 0, delta: "half an ans", partial },
		];
		for (const event of events) stream.push(event);
		stream.end();
		const result = await stream.result();
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toBe("The stream ended without a done or error event");
		expect(result.content).toEqual([{ type: "text", text: "half an ans" }]);
		expect(await collect(stream)).toHaveLength(3);
	});

	it("end() before any event settles an empty error result", async () => {
		const stream = createAssistantMessageEventStream();
		stream.end();
		const result = await stream.result();
		expect(result.stopReason).toBe("error");
		expect(result.content).toEqual([]);
	});
});
