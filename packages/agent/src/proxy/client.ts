import {
	type Api,
	type AssistantMessageEventStream,
	type Context,
	createAssistantMessageEventStream,
	type Model,
	readServerSentEvents,
	type SimpleStreamOptions,
	type StopReason,
} from "@keel/ai";
import { untilAborted } from "../callback-step.js";
import { ProxyMessageRebuilder } from "./message-rebuilder.js";
import {
	PROXY_STREAM_PATH,
	type ProxyAssistantMessageEvent,
	type ProxyStreamRequest,
	pickForwardedOptions,
} from "./protocol.js";

export interface ProxyStreamOptions extends SimpleStreamOptions {
	/**
	 * Sent as `Authorization: Bearer <authToken>`; the proxy's `authenticate` callback checks it.
	 * A function is called before each request, so short-lived tokens can be refreshed.
	 */
	authToken: string | (() => string | Promise<string>);
	/** The proxy's origin (and optional base path); the request goes to `<proxyUrl>/api/stream`. */
	proxyUrl: string;
	/**
	 * Ends the stream when the proxy sends no bytes (not even its heartbeat) for this long, in ms.
	 * Default: `idleTimeoutMs` (2 minutes when unset) plus 30 s, so the server's own idle error
	 * arrives first; 0 disables it.
	 */
	proxyIdleTimeoutMs?: number;
	/** The fetch to use; defaults to the global one. */
	fetch?: typeof fetch;
}

const DEFAULT_IDLE_TIMEOUT_MS = 120_000;
const PROXY_IDLE_SLACK_MS = 30_000;

/**
 * A StreamFunction that runs the call on a Keel proxy server, so a browser never holds a provider
 * key. It posts the model's provider and id, the context and the forwardable options (see
 * `pickForwardedOptions`; never `apiKey`, never credential headers), then rebuilds the message from
 * the proxy's slim SSE events. Like every StreamFunction it never throws and never hangs: bad
 * options, HTTP errors, network errors, a malformed stream, a stream cut short and an abort all
 * arrive as one `error` event, and `result()` always settles.
 */
export function streamProxy(
	model: Model<Api>,
	context: Context,
	options: ProxyStreamOptions,
): AssistantMessageEventStream {
	const stream = createAssistantMessageEventStream();
	const rebuilder = new ProxyMessageRebuilder(model);

	const fail = (reason: Extract<StopReason, "error" | "aborted">, errorMessage: string) => {
		if (stream.isDone) return;
		rebuilder.message.stopReason = reason;
		rebuilder.message.errorMessage = errorMessage;
		stream.push({ type: "error", reason, error: rebuilder.message });
		stream.end();
	};

	void runProxyRequest(model, context, options, stream, rebuilder, fail).catch((error: unknown) => {
		// runProxyRequest handles its own failures; this is the last guard of the never-throw contract.
		fail("error", `Proxy client error: ${describe(error)}`);
	});
	return stream;
}

async function runProxyRequest(
	model: Model<Api>,
	context: Context,
	options: ProxyStreamOptions,
	stream: AssistantMessageEventStream,
	rebuilder: ProxyMessageRebuilder,
	fail: (reason: Extract<StopReason, "error" | "aborted">, errorMessage: string) => void,
): Promise<void> {
	const problem = describeInvalidOptions(options);
	if (problem) return fail("error", problem);
	const callerSignal = options.signal;
	if (callerSignal?.aborted) return fail("aborted", "Request was aborted");

	// One controller for the HTTP request: the caller's abort and the idle watchdog both end it.
	const controller = new AbortController();
	const onCallerAbort = () => controller.abort();
	callerSignal?.addEventListener("abort", onCallerAbort, { once: true });
	const idleTimeoutMs = proxyIdleTimeout(options);
	let lastActivity = Date.now();
	let idleTimer: ReturnType<typeof setTimeout> | undefined;
	let idleExpired = false;
	const checkIdle = () => {
		const quietFor = Date.now() - lastActivity;
		if (quietFor >= idleTimeoutMs) {
			idleExpired = true;
			controller.abort();
		} else {
			idleTimer = setTimeout(checkIdle, idleTimeoutMs - quietFor);
		}
	};
	if (idleTimeoutMs > 0) idleTimer = setTimeout(checkIdle, idleTimeoutMs);

	const body: ProxyStreamRequest = {
		model: { provider: model.provider, id: model.id },
		context,
		options: pickForwardedOptions(options),
	};
	try {
		let authToken: string;
		try {
			const token = typeof options.authToken === "function" ? options.authToken() : options.authToken;
			// A token function that never settles must not hold the stream past an abort or the idle limit.
			authToken = await untilAborted(Promise.resolve(token), controller.signal, "options.authToken()");
		} catch (error) {
			if (controller.signal.aborted) throw error;
			return fail("error", `streamProxy: options.authToken() failed: ${describe(error)}`);
		}
		if (typeof authToken !== "string" || authToken === "") {
			return fail("error", "streamProxy: options.authToken() must return a non-empty string");
		}
		const fetchFunction = options.fetch ?? globalThis.fetch;
		const response = await fetchFunction(joinUrl(options.proxyUrl, PROXY_STREAM_PATH), {
			method: "POST",
			headers: {
				Authorization: `Bearer ${authToken}`,
				"Content-Type": "application/json",
				Accept: "text/event-stream",
			},
			body: JSON.stringify(body),
			signal: controller.signal,
		});
		lastActivity = Date.now();
		if (!response.ok) return fail("error", await describeHttpError(response));
		if (!response.body) return fail("error", "Proxy error: the response has no body");

		// Every chunk, heartbeat comments included, counts as activity for the idle watchdog.
		for await (const batch of readServerSentEvents(response.body, () => {
			lastActivity = Date.now();
		})) {
			for (const { data } of batch) {
				let proxyEvent: ProxyAssistantMessageEvent;
				try {
					proxyEvent = JSON.parse(data) as ProxyAssistantMessageEvent;
				} catch {
					throw new Error(`Proxy stream error: an event is not valid JSON: ${data.slice(0, 200)}`);
				}
				const event = rebuilder.apply(proxyEvent);
				stream.push(event);
				if (event.type === "done" || event.type === "error") {
					stream.end();
					return;
				}
			}
		}
		// The server closed the connection without a terminal event (crash, restart, a proxy in
		// between): the content so far is kept, and the caller gets an error instead of a hang.
		if (callerSignal?.aborted) return fail("aborted", "Request was aborted");
		fail("error", "Proxy stream ended without a done or error event");
	} catch (error) {
		if (callerSignal?.aborted) return fail("aborted", "Request was aborted");
		if (idleExpired) return fail("error", `Proxy stream idle: no data for ${idleTimeoutMs} ms`);
		const text = describe(error);
		fail("error", text.startsWith("Proxy ") ? text : `Proxy request failed: ${text}`);
	} finally {
		if (idleTimer !== undefined) clearTimeout(idleTimer);
		callerSignal?.removeEventListener("abort", onCallerAbort);
		// Closes the connection if the loop stopped early, so the server aborts its upstream call.
		if (!controller.signal.aborted) controller.abort();
	}
}

function proxyIdleTimeout(options: ProxyStreamOptions): number {
	if (options.proxyIdleTimeoutMs !== undefined) return Math.max(0, options.proxyIdleTimeoutMs);
	if (options.idleTimeoutMs === 0) return 0;
	return (options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS) + PROXY_IDLE_SLACK_MS;
}

function describeInvalidOptions(options: ProxyStreamOptions | undefined): string | undefined {
	if (!options || typeof options !== "object") {
		return "streamProxy needs options with proxyUrl and authToken";
	}
	if (typeof options.proxyUrl !== "string" || options.proxyUrl.trim() === "") {
		return "streamProxy: options.proxyUrl must be the proxy's URL, for example https://example.com";
	}
	const token = options.authToken;
	if (typeof token !== "function" && (typeof token !== "string" || token === "")) {
		return "streamProxy: options.authToken must be a non-empty string or a function returning one (sent as a bearer token)";
	}
	const fetchFunction = options.fetch ?? globalThis.fetch;
	if (typeof fetchFunction !== "function") {
		return "streamProxy: no fetch function is available; pass options.fetch";
	}
	return undefined;
}

function joinUrl(base: string, path: string): string {
	return base.replace(/\/+$/, "") + path;
}

/** `Proxy error: <body.error>` when the body is JSON with an error, else `Proxy error: <status> <text>`. */
async function describeHttpError(response: Response): Promise<string> {
	let bodyText = "";
	try {
		bodyText = await response.text();
	} catch {
		// The status alone still says what failed.
	}
	try {
		const parsed = JSON.parse(bodyText) as { error?: unknown };
		if (typeof parsed.error === "string" && parsed.error !== "") return `Proxy error: ${parsed.error}`;
		if (parsed.error && typeof parsed.error === "object") {
			const message = (parsed.error as { message?: unknown }).message;
			if (typeof message === "string") return `Proxy error: ${message}`;
		}
	} catch {
		// Not JSON: fall back to the status line.
	}
	return `Proxy error: ${`${response.status} ${response.statusText}`.trim()}`;
}

function describe(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}
