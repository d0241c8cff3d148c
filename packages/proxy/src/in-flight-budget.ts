// A server-wide budget for the request bytes the proxy holds at once. Each request's body stays in
// memory (as text, then as the parsed context the provider call encodes again) until its upstream
// call ends, so without a budget a burst of large requests grows the process without bound.

/** The bytes one request holds against the budget; it grows as the body arrives. */
export interface BudgetReservation {
	/** Raises the reservation to `totalBytes`; false (and unchanged) when the budget cannot take it. */
	grow(totalBytes: number): boolean;
	/** Gives the bytes back; safe to call more than once. */
	release(): void;
}

export class InFlightBudget {
	private used = 0;

	constructor(readonly limitBytes: number) {}

	/** The bytes currently reserved by requests in flight. */
	get usedBytes(): number {
		return this.used;
	}

	open(): BudgetReservation {
		let reserved = 0;
		return {
			grow: (totalBytes) => {
				const extra = totalBytes - reserved;
				if (extra <= 0) return true;
				if (this.used + extra > this.limitBytes) return false;
				this.used += extra;
				reserved = totalBytes;
				return true;
			},
			release: () => {
				this.used -= reserved;
				reserved = 0;
			},
		};
	}
}
