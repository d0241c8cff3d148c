// What a network failure was, read from the error fetch throws. Node's fetch (undici) reports every
// network failure as `TypeError: fetch failed`; the system error is its `cause` (`code`, `syscall`,
// `address`/`port` or `hostname`), and when several addresses were tried (IPv6 and IPv4 for
// "localhost") the cause is an AggregateError holding one error per address. The SDKs wrap that
// TypeError once more ("Connection error."). Browsers give no cause at all, so nothing is found there.

/** The system error behind a network failure. */
export interface NetworkCause {
	/** `ECONNREFUSED`, `ENOTFOUND`, `ECONNRESET`, `UND_ERR_CONNECT_TIMEOUT` … */
	code: string;
	/** The system error's own text, e.g. `connect ECONNREFUSED 127.0.0.1:11434`. */
	message: string;
	/** Where the connection went: `127.0.0.1:11434`, `[::1]:11434` or a host name. */
	target?: string;
	/** True when no connection was made at all (refused, unresolved, unreachable, connect timeout). */
	beforeConnecting: boolean;
	/** False when trying again cannot help: a host name that does not resolve. */
	retryable: boolean;
}

const NOT_CONNECTED_CODES = new Set([
	"ECONNREFUSED",
	"ENOTFOUND",
	"EAI_AGAIN",
	"EHOSTUNREACH",
	"ENETUNREACH",
	"EHOSTDOWN",
	"EADDRNOTAVAIL",
	"UND_ERR_CONNECT_TIMEOUT",
]);

// A name the resolver says does not exist stays that way for the seconds retries take (EAI_AGAIN is
// the resolver's "try again", and is retried).
const NOT_RETRYABLE_CODES = new Set(["ENOTFOUND"]);

interface SystemErrorShape {
	code?: unknown;
	syscall?: unknown;
	message?: unknown;
	address?: unknown;
	port?: unknown;
	hostname?: unknown;
	cause?: unknown;
	errors?: unknown;
}

const MAX_DEPTH = 6;

/** The network cause of `error`, searched through `cause` chains and AggregateErrors; undefined when there is none. */
export function findNetworkCause(error: unknown): NetworkCause | undefined {
	let current: unknown = error;
	for (let depth = 0; depth < MAX_DEPTH && current && typeof current === "object"; depth++) {
		const shape = current as SystemErrorShape;
		const inner = Array.isArray(shape.errors) ? shape.errors.filter(isObject) : [];
		if (typeof shape.code === "string" && isNetworkCode(shape.code)) {
			return describe(shape.code, inner.length > 0 ? inner : [shape]);
		}
		current = shape.cause ?? inner[0];
	}
	return undefined;
}

function describe(code: string, errors: SystemErrorShape[]): NetworkCause {
	const messages = [...new Set(errors.map((error) => messageOf(error, code)))];
	return {
		code,
		message: messages.join("; "),
		target: targetOf(errors[errors.length - 1]),
		beforeConnecting: NOT_CONNECTED_CODES.has(code),
		retryable: !NOT_RETRYABLE_CODES.has(code),
	};
}

function messageOf(error: SystemErrorShape, code: string): string {
	if (typeof error.message === "string" && error.message) return error.message;
	const syscall = typeof error.syscall === "string" ? `${error.syscall} ` : "";
	const target = targetOf(error);
	return `${syscall}${code}${target ? ` ${target}` : ""}`;
}

function targetOf(error: SystemErrorShape | undefined): string | undefined {
	if (!error) return undefined;
	if (typeof error.address === "string") {
		const host = error.address.includes(":") ? `[${error.address}]` : error.address;
		return typeof error.port === "number" ? `${host}:${error.port}` : host;
	}
	return typeof error.hostname === "string" ? error.hostname : undefined;
}

function isNetworkCode(code: string): boolean {
	// System errors are E + capitals (ECONNREFUSED); Node's own ERR_* codes (ERR_INVALID_URL) are not network failures.
	return (/^E[A-Z_]+$/.test(code) && !code.startsWith("ERR_")) || code.startsWith("UND_ERR_");
}

function isObject(value: unknown): value is SystemErrorShape {
	return typeof value === "object" && value !== null;
}
