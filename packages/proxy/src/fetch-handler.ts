// The proxy server for runtimes built on the Fetch API (Deno, Bun, Cloudflare Workers, Hono, Next.js
// route handlers): a `Request → Response` adapter over the shared pipeline (proxy-pipeline.ts). It
// uses platform APIs only, so it runs wherever `fetch` does.
import {
	type BodyReadLimits,
	bodyTimedOut,
	createHandlerState,
	DEFAULT_MAX_BUFFERED_BYTES,
	type EventSink,
	type ProxyServerOptions,
	runProxyRequest,
	tooLarge,
} from "./proxy-pipeline.js";

export type FetchProxyHandler = (request: Request) => Promise<Response>;

/**
 * A handler for runtimes built on the Fetch API (Deno, Bun, Cloudflare Workers, Hono, Next.js
 * route handlers). The upstream call is aborted when the request's signal fires or the client
 * cancels the response body.
 */
export function createFetchProxyHandler(options: ProxyServerOptions<Request>): FetchProxyHandler {
	const state = createHandlerState(options);
	return async (request) => {
		const controller = new AbortController();
		const onRequestAbort = () => controller.abort();
		if (request.signal.aborted) controller.abort();
		else request.signal.addEventListener("abort", onRequestAbort, { once: true });
		const url = new URL(request.url);
		const result = await runProxyRequest(
			{
				request,
				method: request.method,
				pathname: url.pathname,
				header: (name) => request.headers.get(name),
				readBody: (limits) => readFetchBody(request, limits),
			},
			options,
			state,
			controller.signal,
		);
		if (result.kind !== "events") request.signal.removeEventListener("abort", onRequestAbort);
		if (result.kind === "not-found") {
			return Response.json({ error: `Not found: ${url.pathname}` }, { status: 404 });
		}
		if (result.kind === "json") return new Response(result.body, { status: result.status, headers: result.headers });
		if (result.kind === "empty") return new Response(null, { status: result.status, headers: result.headers });

		const encoder = new TextEncoder();
		const maxBufferedBytes = options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES;
		const body = new ReadableStream<Uint8Array>(
			{
				start(streamController) {
					let open = true;
					const close = () => {
						if (!open) return;
						open = false;
						streamController.close();
					};
					const sink: EventSink = {
						write(chunk) {
							if (!open) return;
							// desiredSize is the queue's room in bytes: below 0, the client is more than
							// maxBufferedBytes behind. Drop it and stop paying for the upstream call.
							if ((streamController.desiredSize ?? 0) < 0) {
								open = false;
								streamController.error(new Error("The client fell too far behind (maxBufferedBytes)"));
								controller.abort();
								return;
							}
							streamController.enqueue(encoder.encode(chunk));
						},
						isBackedUp: () => (streamController.desiredSize ?? 0) < maxBufferedBytes,
					};
					void result.pump(sink).finally(() => {
						result.release();
						request.signal.removeEventListener("abort", onRequestAbort);
						close();
					});
					controller.signal.addEventListener("abort", () => {
						open = false;
					});
				},
				cancel() {
					// The client stopped reading: abort the upstream call.
					controller.abort();
				},
			},
			{ highWaterMark: maxBufferedBytes, size: (chunk) => chunk.byteLength },
		);
		return new Response(body, { status: 200, headers: result.headers });
	};
}

async function readFetchBody(request: Request, limits: BodyReadLimits): Promise<string> {
	if (!request.body) return "";
	const reader = request.body.getReader();
	// With a declared length the body is copied once into a buffer of that size, instead of being
	// kept as chunks and copied again when joined: the body is in memory once while it arrives.
	const declared = Number(request.headers.get("content-length") ?? Number.NaN);
	const preallocated =
		Number.isInteger(declared) && declared > 0 && declared <= limits.maxBytes ? new Uint8Array(declared) : undefined;
	const chunks: Uint8Array[] = [];
	let size = 0;
	let timer: ReturnType<typeof setTimeout> | undefined;
	const timedOut = new Promise<never>((_, reject) => {
		timer = setTimeout(() => reject(bodyTimedOut(limits.timeoutMs)), limits.timeoutMs);
	});
	timedOut.catch(() => {});
	try {
		while (true) {
			const { value, done } = await Promise.race([reader.read(), timedOut]);
			if (done) break;
			size += value.byteLength;
			if (size > limits.maxBytes) throw tooLarge(limits.maxBytes);
			limits.accept(size);
			if (preallocated && chunks.length === 0 && size <= preallocated.length) {
				preallocated.set(value, size - value.byteLength);
			} else {
				chunks.push(value);
			}
		}
	} catch (error) {
		await reader.cancel().catch(() => {});
		throw error;
	} finally {
		clearTimeout(timer);
	}
	if (preallocated && chunks.length === 0) return new TextDecoder().decode(preallocated.subarray(0, size));
	// No declared length, or more bytes than it said: join what was received.
	const bytes = new Uint8Array(size);
	let offset = 0;
	if (preallocated) {
		const received = size - chunks.reduce((total, chunk) => total + chunk.byteLength, 0);
		bytes.set(preallocated.subarray(0, received), 0);
		offset = received;
	}
	for (const chunk of chunks) {
		bytes.set(chunk, offset);
		offset += chunk.byteLength;
	}
	return new TextDecoder().decode(bytes);
}
