// Draining a large backlog of EventStream events. A consumer that starts late (or a slow UI)
// meets a full queue; with an Array.shift() queue every dequeue moves the whole backlog.
import { EventStream } from "../../packages/ai/src/utils/event-stream.js";
import { medianMs, printTable } from "./measure.js";

type Event = { value: number; last: boolean };

/** The naive queue for comparison: the same push/iterate contract on Array.shift(). */
class ShiftQueueStream<T> implements AsyncIterable<T> {
	private queue: T[] = [];
	private waiting: ((result: IteratorResult<T>) => void)[] = [];
	private done = false;

	constructor(private readonly isComplete: (event: T) => boolean) {}

	push(event: T): void {
		if (this.done) return;
		if (this.isComplete(event)) this.done = true;
		const waiter = this.waiting.shift();
		if (waiter) waiter({ value: event, done: false });
		else this.queue.push(event);
	}

	async *[Symbol.asyncIterator](): AsyncIterator<T> {
		while (true) {
			if (this.queue.length > 0) {
				yield this.queue.shift() as T;
				continue;
			}
			if (this.done) return;
			const next = await new Promise<IteratorResult<T>>((resolve) => this.waiting.push(resolve));
			if (next.done) return;
			yield next.value;
		}
	}
}

interface PushAndIterate {
	push(event: Event): void;
	[Symbol.asyncIterator](): AsyncIterator<Event>;
}

async function drain(create: () => PushAndIterate, count: number): Promise<void> {
	const stream = create();
	for (let index = 0; index < count; index++) stream.push({ value: index, last: index === count - 1 });
	let sum = 0;
	for await (const event of stream) sum += event.value;
	if (sum !== (count * (count - 1)) / 2) throw new Error(`drain lost events: sum ${sum}`);
}

async function timeOnceMs(task: () => Promise<void>): Promise<number> {
	const start = performance.now();
	await task();
	return performance.now() - start;
}

export default async function (): Promise<void> {
	const rows: Record<string, string | number>[] = [];
	for (const count of [10_000, 100_000]) {
		const eventStream = await medianMs(() =>
			drain(
				() =>
					new EventStream<Event>(
						(event) => event.last,
						(event) => event,
					),
				count,
			),
		);
		// The quadratic baseline takes seconds at 100k, so it is timed once, without a warm-up.
		const shiftQueue = await timeOnceMs(() => drain(() => new ShiftQueueStream<Event>((event) => event.last), count));
		rows.push({
			events: count,
			"EventStream ms": eventStream,
			"Array.shift() queue ms": shiftQueue,
			"EventStream ns/event": (eventStream * 1e6) / count,
		});
	}
	printTable(rows);
}
