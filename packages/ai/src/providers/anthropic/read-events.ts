import type Anthropic from "@anthropic-ai/sdk";
import { parseStreamEventJson } from "../shared/parse-stream-json.js";
import { readServerSentEvents } from "../shared/sse.js";

type StreamEvent = Anthropic.Messages.RawMessageStreamEvent;

// The SDK builds and sends the request and raises its typed errors for non-2xx responses; only the
// 200 body is read here, with the shared SSE reader (see shared/sse.ts for why not the SDK's Stream).

/** An `event: error` inside a 200 stream, shaped like the SDK's APIError (no status, the JSON body). */
function streamErrorEvent(data: string, headers: Headers): Error {
	let body: unknown = data;
	try {
		body = JSON.parse(data);
	} catch {
		// Kept as text: the message below still shows it.
	}
	const inner = (body as { error?: { message?: unknown } } | null)?.error;
	const message = typeof inner?.message === "string" ? inner.message : data;
	return Object.assign(new Error(message), { status: undefined, error: body, headers });
}

/**
 * The Messages API events of a 200 streaming response, in order, one batch per network chunk.
 * `ping` is skipped, an `error` event is thrown (see `classifyAnthropicError`), `onBytes` runs for
 * every chunk so the idle watchdog sees a live connection.
 */
export async function* readAnthropicEvents(response: Response, onBytes: () => void): AsyncGenerator<StreamEvent[]> {
	if (!response.body) throw new Error("The Anthropic response to a streaming request has no body");
	for await (const batch of readServerSentEvents(response.body, onBytes)) {
		const events: StreamEvent[] = [];
		for (const event of batch) {
			if (event.event === "ping") continue;
			if (event.event === "error") {
				// Deliver what came before the error first, so partial content is kept.
				if (events.length > 0) yield events;
				throw streamErrorEvent(event.data, response.headers);
			}
			events.push(parseStreamEventJson(event.data, "Anthropic", event.event) as StreamEvent);
		}
		if (events.length > 0) yield events;
	}
}
