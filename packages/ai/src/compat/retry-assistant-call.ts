import type { AssistantMessage } from "../types.js";

/** How a caller retries whole assistant calls that failed with a transient error. */
export interface RetryPolicy {
	enabled: boolean;
	/** Retries after the first call. */
	maxRetries: number;
	/** The first delay; each retry doubles it. */
	baseDelayMs: number;
	/** Cap on one delay. Default {@link DEFAULT_MAX_AGENT_RETRY_DELAY_MS}. */
	maxAgentDelayMs?: number;
}

export const DEFAULT_MAX_AGENT_RETRY_DELAY_MS = 60_000;

export interface RetryCallbacks {
	onRetryScheduled?: (
		attempt: number,
		maxAttempts: number,
		delayMs: number,
		errorMessage: string,
	) => void | Promise<void>;
	onRetryAttemptStart?: () => void | Promise<void>;
	/** Called once when a call that was retried at least once settles. */
	onRetryFinished?: (success: boolean, attempt: number, finalError?: string) => void | Promise<void>;
}

/** The delay before retry number `attempt` (1-based): base × 2^(attempt − 1), capped. */
export function retryDelayMs(policy: Pick<RetryPolicy, "baseDelayMs" | "maxAgentDelayMs">, attempt: number): number {
	const doubled = policy.baseDelayMs * 2 ** Math.max(0, attempt - 1);
	const cap = policy.maxAgentDelayMs ?? DEFAULT_MAX_AGENT_RETRY_DELAY_MS;
	return Math.min(Number.isFinite(doubled) ? doubled : cap, cap);
}

// Account limits that a retry within minutes cannot lift: quota and billing exhaustion.
const ACCOUNT_LIMIT =
	/insufficient_quota|quota exceeded|exceeded your current quota|billing|out of (?:budget|credits)/i;

// Transient failures: overload and rate limits, gateway and server status codes (as whole numbers,
// not digits inside an id), and connection or stream breaks.
const TRANSIENT = new RegExp(
	[
		"overloaded",
		"rate.?limit",
		"too many requests",
		"(?<![0-9a-z])(?:408|429|500|502|503|504|520|522|524|529)(?![0-9a-z])",
		"service.?(?:is.?)?(?:temporarily.?)?unavailable",
		"(?:server|internal).?error",
		"capacity",
		"fetch failed",
		"network.?error",
		"connection.?(?:error|refused|reset|lost|closed)",
		"socket hang up",
		"ECONNRESET",
		"ETIMEDOUT",
		"ENOTFOUND",
		"EAI_AGAIN",
		"timed? ?out",
		"stream (?:ended|closed|was interrupted|stalled)",
		"ended without",
		"terminated",
	].join("|"),
	"i",
);

/** Whether a failed assistant message looks transient, so repeating the call may succeed. */
export function isRetryableAssistantError(message: AssistantMessage): boolean {
	if (message.stopReason !== "error" || !message.errorMessage) return false;
	if (ACCOUNT_LIMIT.test(message.errorMessage)) return false;
	return TRANSIENT.test(message.errorMessage);
}

/** Resolves after `delayMs`, or to false at once when `signal` aborts. */
function waitUnlessAborted(delayMs: number, signal: AbortSignal | undefined): Promise<boolean> {
	if (signal?.aborted) return Promise.resolve(false);
	return new Promise((resolve) => {
		const onAbort = () => {
			clearTimeout(timer);
			resolve(false);
		};
		const timer = setTimeout(() => {
			signal?.removeEventListener("abort", onAbort);
			resolve(true);
		}, delayMs);
		signal?.addEventListener("abort", onAbort, { once: true });
	});
}

/**
 * Runs `produce` and repeats it while it returns a transient error (see isRetryableAssistantError),
 * up to `policy.maxRetries` times with doubling delays. Success, aborts and other errors return at
 * once. An abort during a delay returns the last message as aborted (without its error text).
 * Without a policy, or with `enabled: false`, this is one call of `produce`.
 */
export async function retryAssistantCall(
	produce: () => Promise<AssistantMessage>,
	policy: RetryPolicy | undefined,
	signal: AbortSignal | undefined,
	callbacks: RetryCallbacks = {},
): Promise<AssistantMessage> {
	const maxRetries = policy?.enabled ? Math.max(0, policy.maxRetries) : 0;
	let retries = 0;
	for (;;) {
		const message = await produce();
		const failed = message.stopReason === "error";
		const giveUp = !failed || retries >= maxRetries || !isRetryableAssistantError(message);
		if (message.stopReason === "aborted" || giveUp) {
			if (retries > 0) {
				const success = message.stopReason !== "error" && message.stopReason !== "aborted";
				await callbacks.onRetryFinished?.(success, retries, failed ? message.errorMessage : undefined);
			}
			return message;
		}
		retries++;
		const errorMessage = message.errorMessage ?? "Unknown error";
		const delayMs = retryDelayMs(policy as RetryPolicy, retries);
		await callbacks.onRetryScheduled?.(retries, maxRetries, delayMs, errorMessage);
		if (!(await waitUnlessAborted(delayMs, signal))) {
			await callbacks.onRetryFinished?.(false, retries, errorMessage);
			const { errorMessage: _dropped, ...rest } = message;
			return { ...rest, stopReason: "aborted" };
		}
		await callbacks.onRetryAttemptStart?.();
	}
}
