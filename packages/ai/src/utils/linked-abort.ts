// An inner call's own abort signal, linked to the caller's: it aborts when the caller's does, and
// when the outer call (a fallback chain, a structured-output call) ends while the inner call is
// still running, so no inner request is left open after its caller has its answer or its error.
// Platform APIs only (AbortController, addEventListener): browsers and Workers load this.

export interface LinkedAbort {
	/** The signal to give the inner call; the caller's own value when it is not an AbortSignal (the call reports that). */
	signal: AbortSignal | undefined;
	/** Aborts the inner call (no-op once aborted) and stops listening to the caller's signal. */
	release(): void;
}

function isAbortSignal(value: unknown): value is AbortSignal {
	const candidate = value as Partial<AbortSignal> | null;
	return (
		typeof candidate === "object" &&
		candidate !== null &&
		typeof candidate.addEventListener === "function" &&
		typeof candidate.aborted === "boolean"
	);
}

export function linkAbort(callerSignal: unknown): LinkedAbort {
	if (callerSignal !== undefined && !isAbortSignal(callerSignal)) {
		// Passed on untouched so the inner call ends with its clear error about the bad signal.
		return { signal: callerSignal as AbortSignal, release() {} };
	}
	const controller = new AbortController();
	const forward = () => controller.abort(callerSignal?.reason);
	if (callerSignal?.aborted) forward();
	else callerSignal?.addEventListener("abort", forward, { once: true });
	return {
		signal: controller.signal,
		release() {
			callerSignal?.removeEventListener("abort", forward);
			controller.abort(new Error("The outer call ended"));
		},
	};
}
