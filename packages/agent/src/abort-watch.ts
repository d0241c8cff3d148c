// Lets a wait be cut short by an abort signal, for code that must not hang on a stream function or
// a tool that ignores its signal.

/** What `AbortWatch.race` resolves to once the signal has aborted (and any grace period has passed). */
export const ABORTED = Symbol("aborted");

/**
 * `race(promise)` settles like `promise`, or with ABORTED once `signal` aborted and `graceMs` more
 * passed. One listener for the whole wait, however many promises it races: a stream of thousands of
 * deltas raced with `Promise.race` against one shared abort promise would leave a reaction on that
 * promise per delta until the run ends. The watch is itself the listener (`handleEvent`), so no
 * closure is made per wait. Against `Promise.race` it saves about 4 µs per turn of a run with a
 * signal (scripts/bench/agent-loop.bench.ts, "loop overhead with an AbortSignal"). Call `dispose()`
 * when done: it removes the listener and any grace timer.
 */
export class AbortWatch {
	private wake?: (value: typeof ABORTED) => void;
	private timer?: ReturnType<typeof setTimeout>;
	private fired = false;

	constructor(
		private readonly signal: AbortSignal,
		private readonly graceMs: number,
	) {
		if (signal.aborted) this.handleEvent();
		else signal.addEventListener("abort", this, { once: true });
	}

	/** Called by the signal on abort. */
	handleEvent(): void {
		if (this.graceMs <= 0) this.fire();
		else if (this.timer === undefined) this.timer = setTimeout(() => this.fire(), this.graceMs);
	}

	/** Settles like `promise`, or with ABORTED when the watch fires first. */
	race<T>(promise: T | PromiseLike<T>): Promise<T | typeof ABORTED> {
		if (this.fired) {
			// Settles the caller's promise anyway, so a late rejection is never reported as unhandled.
			Promise.resolve(promise).catch(() => {});
			return Promise.resolve(ABORTED);
		}
		return new Promise<T | typeof ABORTED>((resolve, reject) => {
			this.wake = resolve;
			Promise.resolve(promise).then(resolve, reject);
		});
	}

	dispose(): void {
		if (this.timer !== undefined) clearTimeout(this.timer);
		this.wake = undefined;
		this.signal.removeEventListener("abort", this);
	}

	private fire(): void {
		this.fired = true;
		this.wake?.(ABORTED);
		this.wake = undefined;
	}
}
