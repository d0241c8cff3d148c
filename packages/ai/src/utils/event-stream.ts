import type { AssistantMessage, AssistantMessageEvent } from "../types.js";
import { createErrorMessage } from "./error-message.js";

export { createEmptyAssistantMessage } from "./empty-assistant-message.js";

/**
 * A push-based async iterable with a final-result promise.
 *
 * The queue is a growable array with a read cursor, so push and pull are both O(1)
 * (an `Array.shift()` queue makes draining a large backlog quadratic). Consumed slots are
 * released as the cursor moves so a long stream does not keep every event alive.
 */
export class EventStream<T, R = T> implements AsyncIterable<T> {
	private queue: (T | undefined)[] = [];
	private head = 0;
	private waiting: ((result: IteratorResult<T>) => void)[] = [];
	private done = false;
	private settled = false;
	private resolveResult!: (result: R) => void;
	private rejectResult!: (error: Error) => void;
	private readonly resultPromise: Promise<R>;

	constructor(
		private readonly isComplete: (event: T) => boolean,
		private readonly extractResult: (event: T) => R,
		/** Used by `end()` when no terminal event was pushed, so `result()` never waits forever. */
		private readonly fallbackResult?: () => R,
	) {
		this.resultPromise = new Promise<R>((resolve, reject) => {
			this.resolveResult = resolve;
			this.rejectResult = reject;
		});
		// A rejection nobody awaits must not crash the process.
		this.resultPromise.catch(() => {});
	}

	/** Adds an event. Ignored once the stream has ended. */
	push(event: T): void {
		if (this.done) return;
		if (this.isComplete(event)) {
			this.done = true;
			this.settle(this.extractResult(event));
		}
		const waiter = this.waiting.shift();
		if (waiter) {
			waiter({ value: event, done: false });
		} else {
			this.queue.push(event);
		}
		if (this.done) this.wakeAllWithDone();
	}

	/**
	 * Ends the stream. `result()` settles with `result`, or else with the terminal event's result,
	 * or else with the fallback result, or else rejects: nothing waits forever.
	 */
	end(result?: R): void {
		this.done = true;
		if (result !== undefined) this.settle(result);
		else if (!this.settled) {
			if (this.fallbackResult) this.settle(this.fallbackResult());
			else {
				this.settled = true;
				this.rejectResult(new Error("Stream ended without a terminal event or result"));
			}
		}
		this.wakeAllWithDone();
	}

	/** True once a terminal event was pushed or `end()` was called. */
	get isDone(): boolean {
		return this.done;
	}

	result(): Promise<R> {
		return this.resultPromise;
	}

	// A hand-written iterator rather than an async generator: a generator costs several promise
	// hops per event, this costs one, which matters when a large backlog drains.
	[Symbol.asyncIterator](): AsyncIterator<T> {
		return {
			next: () => {
				if (this.head < this.queue.length) {
					const event = this.queue[this.head] as T;
					this.queue[this.head] = undefined;
					this.head++;
					this.compact();
					return Promise.resolve({ value: event, done: false });
				}
				if (this.done) return Promise.resolve({ value: undefined, done: true });
				return new Promise<IteratorResult<T>>((resolve) => this.waiting.push(resolve));
			},
			return: () => Promise.resolve({ value: undefined, done: true }),
		};
	}

	private settle(result: R): void {
		if (this.settled) return;
		this.settled = true;
		this.resolveResult(result);
	}

	private wakeAllWithDone(): void {
		// Waiters only exist when the queue is empty, so waking them loses nothing.
		const waiters = this.waiting;
		this.waiting = [];
		for (const waiter of waiters) waiter({ value: undefined, done: true });
	}

	/** Drops consumed slots once they are the larger part of the array (amortised O(1)). */
	private compact(): void {
		if (this.head >= 1024 && this.head * 2 >= this.queue.length) {
			this.queue = this.queue.slice(this.head);
			this.head = 0;
		}
	}
}

/**
 * The stream every provider returns. `end()` without a done/error event settles `result()` with
 * the last partial message marked as an error, so a broken provider cannot leave callers waiting.
 */
export class AssistantMessageEventStream extends EventStream<AssistantMessageEvent, AssistantMessage> {
	private lastPartial: AssistantMessage | undefined;

	constructor() {
		super(
			(event) => event.type === "done" || event.type === "error",
			(event) => {
				if (event.type === "done") return event.message;
				if (event.type === "error") return event.error;
				throw new Error(`Not a terminal event: ${event.type}`);
			},
			() => this.unterminatedResult(),
		);
	}

	override push(event: AssistantMessageEvent): void {
		if ("partial" in event) this.lastPartial = event.partial;
		super.push(event);
	}

	private unterminatedResult(): AssistantMessage {
		const from = this.lastPartial ?? { api: "unknown", provider: "unknown", id: "unknown" };
		return createErrorMessage(from, "error", "The stream ended without a done or error event");
	}
}

/** Creates an AssistantMessageEventStream. */
export function createAssistantMessageEventStream(): AssistantMessageEventStream {
	return new AssistantMessageEventStream();
}
