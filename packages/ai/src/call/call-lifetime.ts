// How long one provider call may live: until the caller aborts, until `timeoutMs` has passed since
// the call began, or until the stream made no progress for `idleTimeoutMs` while an attempt was
// running. One AbortSignal carries all three; `stopCause` says which one fired. Plain
// setTimeout/clearTimeout, so it runs in browsers and Workers too.
//
// What "alive" means, for every transport (the read loop, wire/pump.ts, reports it):
// - progress (`touch`): the response began, or a chunk moved the message on (the builder emitted
//   an event). It restarts the idle watchdog.
// - keep-alive traffic (`keepAlive`): SSE comments, pings, event types the decoder ignores, bytes
//   of a line or frame that is not complete yet. It restarts the watchdog too, but only until
//   KEEP_ALIVE_ALLOWANCE × idleTimeoutMs have passed since the last progress, before the first
//   content as between events. A server that only trickles is therefore stopped at the latest
//   (KEEP_ALIVE_ALLOWANCE + 1) × idleTimeoutMs after its last progress.

export type StopCause =
	| { kind: "aborted" }
	| { kind: "timeout"; ms: number }
	| { kind: "idle"; ms: number; keptAliveOnlyForMs?: number };

/** Every call ends after this long unless the caller sets `timeoutMs` (a larger value, or 0 for none). */
export const DEFAULT_TIMEOUT_MS = 60 * 60_000;

/** How many idle periods keep-alive traffic alone may keep a call alive since its last progress. */
export const KEEP_ALIVE_ALLOWANCE = 4;

export interface CallLimits {
	/** The caller's signal (`options.signal`). */
	signal?: AbortSignal;
	/** Total time for the call in ms; 0, undefined, Infinity or beyond setTimeout's range mean none. */
	timeoutMs?: number;
	/** Longest silence while an attempt runs, in ms; 0, Infinity or beyond setTimeout's range mean none. */
	idleTimeoutMs?: number;
}

// setTimeout runs a delay above 2^31-1 ms after 1 ms. A limit that long (or Infinity) can never be
// reached, so it means no limit rather than an immediate timeout.
const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;

function timerLimit(ms: number | undefined): number {
	if (ms === undefined || !(ms > 0) || ms > MAX_TIMER_DELAY_MS) return 0;
	return ms;
}

/** The `errorMessage` a stopped call ends with. */
export function stopMessage(cause: StopCause): string {
	if (cause.kind === "aborted") return "Request was aborted";
	if (cause.kind === "timeout") return `Request timed out after ${cause.ms} ms (timeoutMs)`;
	if (cause.keptAliveOnlyForMs !== undefined) {
		return `The provider sent only keep-alives or an incomplete event for ${cause.keptAliveOnlyForMs} ms after its last progress; the stream was stopped (idleTimeoutMs ${cause.ms} ms)`;
	}
	return `No data received from the provider for ${cause.ms} ms; the stream was stopped (idleTimeoutMs)`;
}

/** The stop reason of a stopped call: only the caller's own abort is "aborted". */
export function stopReason(cause: StopCause): "aborted" | "error" {
	return cause.kind === "aborted" ? "aborted" : "error";
}

/** The error a raced promise rejects with when the call stops. */
export class CallStoppedError extends Error {
	override name = "CallStoppedError";
	constructor(readonly stopCause: StopCause) {
		super(stopMessage(stopCause));
	}
}

/** One call's stop conditions. Create it when the call starts; `dispose()` when the call ends. */
export class CallLifetime {
	private readonly controller = new AbortController();
	private cause: StopCause | undefined;
	private readonly stopped: Promise<never>;
	private rejectStopped: (error: CallStoppedError) => void = () => {};
	private readonly callerSignal: AbortSignal | undefined;
	private readonly idleTimeoutMs: number;
	private totalTimer: ReturnType<typeof setTimeout> | undefined;
	private idleTimer: ReturnType<typeof setTimeout> | undefined;
	private lastActivity = 0;
	private lastProgress = 0;
	private keepAliveSinceProgress = false;
	/** Counts recorded activity, so the idle check sees activity within the same millisecond. */
	private activityCount = 0;

	constructor(limits: CallLimits = {}) {
		this.stopped = new Promise<never>((_, reject) => {
			this.rejectStopped = reject;
		});
		this.stopped.catch(() => {});
		this.callerSignal = limits.signal;
		this.idleTimeoutMs = timerLimit(limits.idleTimeoutMs);
		// Throws for a `signal` that is not an AbortSignal: the harness reports that as a bad option.
		limits.signal?.addEventListener("abort", this.onCallerAbort, { once: true });
		if (limits.signal?.aborted) this.stop({ kind: "aborted" });
		const timeoutMs = timerLimit(limits.timeoutMs);
		if (timeoutMs > 0) this.totalTimer = setTimeout(() => this.stop({ kind: "timeout", ms: timeoutMs }), timeoutMs);
	}

	/** Aborts when the call stops, whatever the cause. */
	get signal(): AbortSignal {
		return this.controller.signal;
	}

	/** Why the call stopped; undefined while it runs. */
	get stopCause(): StopCause | undefined {
		return this.cause;
	}

	/**
	 * Records progress and starts the idle watchdog if it is paused. The watchdog keeps a deadline
	 * rather than re-arming a timer per chunk: `touch` only records the time, and the one timer, when
	 * it fires early, waits again for what is left (Node's timer refresh method is not in browsers or Workers).
	 */
	touch = (): void => {
		if (this.idleTimeoutMs === 0 || this.cause) return;
		const now = Date.now();
		this.lastActivity = now;
		this.activityCount++;
		this.lastProgress = now;
		this.keepAliveSinceProgress = false;
		if (!this.idleTimer) this.idleTimer = setTimeout(this.checkIdle, this.idleTimeoutMs);
	};

	/**
	 * Records traffic that is no progress (see the top of this file): it counts as activity only
	 * while KEEP_ALIVE_ALLOWANCE × idleTimeoutMs have not passed since the last progress.
	 */
	keepAlive = (): void => {
		if (this.idleTimeoutMs === 0 || this.cause) return;
		const now = Date.now();
		this.keepAliveSinceProgress = true;
		if (now - this.lastProgress >= this.idleTimeoutMs * KEEP_ALIVE_ALLOWANCE) return;
		this.lastActivity = now;
		this.activityCount++;
		if (!this.idleTimer) this.idleTimer = setTimeout(this.checkIdle, this.idleTimeoutMs);
	};

	/** Stops the idle watchdog (between attempts, while waiting to retry). `touch` starts it again. */
	pauseIdle(): void {
		if (this.idleTimer) clearTimeout(this.idleTimer);
		this.idleTimer = undefined;
	}

	/** Settles like `promise`, or rejects with a CallStoppedError as soon as the call stops. */
	race<T>(promise: Promise<T>): Promise<T> {
		if (this.cause) {
			promise.catch(() => {});
			return Promise.reject(new CallStoppedError(this.cause));
		}
		return Promise.race([promise, this.stopped]);
	}

	/** Resolves true after `ms` (at most setTimeout's range), or false as soon as the call stops. */
	sleep(ms: number): Promise<boolean> {
		if (this.cause) return Promise.resolve(false);
		return new Promise((resolve) => {
			const onStop = () => {
				clearTimeout(timer);
				resolve(false);
			};
			const timer = setTimeout(
				() => {
					this.signal.removeEventListener("abort", onStop);
					resolve(true);
				},
				Math.min(ms, MAX_TIMER_DELAY_MS),
			);
			this.signal.addEventListener("abort", onStop, { once: true });
		});
	}

	/**
	 * A signal for one attempt: aborted when the call stops and when `end()` is called, so whatever
	 * the attempt left open (a response body nobody read) is closed rather than holding a socket.
	 */
	beginAttempt(): { signal: AbortSignal; end: () => void } {
		const controller = new AbortController();
		const abort = () => controller.abort(this.signal.reason);
		if (this.signal.aborted) abort();
		else this.signal.addEventListener("abort", abort, { once: true });
		return {
			signal: controller.signal,
			end: () => {
				this.signal.removeEventListener("abort", abort);
				if (!controller.signal.aborted) controller.abort(new Error("The attempt ended"));
			},
		};
	}

	/** Clears every timer and listener. The signal stays as it is. */
	dispose(): void {
		this.pauseIdle();
		if (this.totalTimer) clearTimeout(this.totalTimer);
		this.totalTimer = undefined;
		this.callerSignal?.removeEventListener("abort", this.onCallerAbort);
	}

	private stop(cause: StopCause): void {
		if (this.cause) return;
		this.cause = cause;
		this.dispose();
		const error = new CallStoppedError(cause);
		this.controller.abort(error);
		this.rejectStopped(error);
	}

	private readonly onCallerAbort = (): void => this.stop({ kind: "aborted" });

	private readonly checkIdle = (): void => {
		const quietFor = Date.now() - this.lastActivity;
		if (quietFor < this.idleTimeoutMs) {
			this.idleTimer = setTimeout(this.checkIdle, this.idleTimeoutMs - quietFor);
			return;
		}
		// The deadline passed. A timer that runs late means a starved event loop (a busy machine, a
		// process descheduled for a while): it may run before the I/O that arrived meanwhile, and
		// stopping now would abort the body with bytes already received (content a failure must keep)
		// unread. Then the watchdog gives the loop one more turn, in which pending reads are delivered
		// and the read loop reports them, before it stops the call. A timer on time stops at once.
		const activityAtDeadline = this.activityCount;
		if (quietFor === this.idleTimeoutMs) this.confirmIdle(activityAtDeadline);
		else this.idleTimer = setTimeout(() => this.confirmIdle(activityAtDeadline), 0);
	};

	private confirmIdle(activityAtDeadline: number): void {
		if (this.activityCount !== activityAtDeadline) {
			this.idleTimer = undefined;
			this.checkIdle();
			return;
		}
		this.idleTimer = undefined;
		const keptAliveOnlyForMs = this.keepAliveSinceProgress ? Date.now() - this.lastProgress : undefined;
		this.stop({ kind: "idle", ms: this.idleTimeoutMs, keptAliveOnlyForMs });
	}
}
