import type { ProviderAttempt } from "../../call/provider-attempt.js";
import type { Api } from "../../types.js";
import { framesInBatches } from "../../wire/framers.js";
import { pump } from "../../wire/pump.js";
import { OpenAIResponsesDecoder } from "../openai-responses/decode.js";
import type { OpenAICodexRequestBody } from "./encode.js";
import { parseCodexEvent } from "./parse-event.js";
import type { CodexWebSocket, SocketEvent } from "./websocket-connection.js";
import { WebSocketClosedError } from "./websocket-errors.js";
import type { SocketLease } from "./websocket-pool.js";

/**
 * One response over an open socket: `onPayload`, the `response.create` message (the request body
 * without `stream`, which a WebSocket implies), then every message to the decoder until the
 * terminal event. The socket is given back reusable only when the response finished.
 * @see https://developers.openai.com/api/reference/resources/responses/websocket-events
 */
export async function streamResponseOverWebSocket<TApi extends Api>(
	attempt: ProviderAttempt<TApi>,
	lease: SocketLease,
	body: OpenAICodexRequestBody,
	label: string,
): Promise<void> {
	let finished = false;
	try {
		const payload = await attempt.preparePayload(body);
		attempt.touch();
		// A WebSocket has no HTTP response per request: 101 is the status the socket was opened with.
		await attempt.reportResponse({ status: 101, headers: {} });
		const { stream: _implied, ...fields } = payload;
		lease.socket.send(JSON.stringify({ type: "response.create", ...fields }));
		const decoder = new OpenAIResponsesDecoder(attempt.builder, label, payload.service_tier ?? undefined);
		finished = await readResponse(attempt, lease.socket, decoder, label);
	} finally {
		lease.release(finished);
	}
}

/** True when the terminal event arrived; false on abort. Throws when the socket closes first. */
async function readResponse<TApi extends Api>(
	attempt: ProviderAttempt<TApi>,
	socket: CodexWebSocket,
	decoder: OpenAIResponsesDecoder,
	label: string,
): Promise<boolean> {
	// A socket never ends like a body does: its close arrives as an event, and an abort wakes the
	// waiting read with an empty batch.
	const onAbort = () => socket.interrupt();
	attempt.signal.addEventListener("abort", onAbort, { once: true });
	const batches: AsyncIterator<SocketEvent[]> = {
		next: async () => ({ done: false, value: await socket.nextBatch() }),
	};
	try {
		const outcome = await pump(attempt, batches, {
			label,
			framer: framesInBatches<SocketEvent>(),
			decoder,
			parse: (event) => {
				if (event.type === "closed") throw socketClosedError(event, label);
				return parseCodexEvent({ event: undefined, data: event.data }, label);
			},
			rawEvent: (event) => (event.type === "message" ? { event: undefined, data: event.data } : undefined),
		});
		return outcome === "finished";
	} finally {
		attempt.signal.removeEventListener("abort", onAbort);
	}
}

/** The wording the HTTP transport uses for a body cut mid-stream, with the socket's close code and reason. */
function socketClosedError(event: Extract<SocketEvent, { type: "closed" }>, label: string): WebSocketClosedError {
	const reason = event.reason ? `: ${event.reason}` : "";
	return new WebSocketClosedError(
		`The connection to ${label} closed before the response was finished: WebSocket closed with code ${event.code}${reason}`,
	);
}
