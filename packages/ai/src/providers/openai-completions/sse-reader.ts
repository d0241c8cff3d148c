// A server-sent-events reader for the response body the openai SDK hands back (`asResponse()`).
//
// Why not the SDK's own `Stream`: measured on 20k text deltas it costs about 3.5× a plain
// split-and-parse of the same body (its line decoder copies bytes per line). The SDK still builds
// and sends the request and turns HTTP errors into typed errors; only the body is read here.

/** One event: its `event:` name when the server sent one, and the joined `data:` lines. */
export interface ServerSentEvent {
	event: string | undefined;
	data: string;
}

/**
 * Yields the events of an SSE body, as one array per network chunk (one async step per chunk
 * rather than per event: thousands of small deltas often arrive in one chunk). Comment lines (`: keep-alive`, OpenRouter's
 * `: OPENROUTER PROCESSING`) are skipped; `onBytes` is called for every chunk received, comments
 * included, so an idle watchdog sees a live connection. Lines end with `\n` or `\r\n`.
 */
export async function* readServerSentEvents(
	body: ReadableStream<Uint8Array>,
	onBytes: () => void = () => {},
): AsyncGenerator<ServerSentEvent[]> {
	const decoder = new TextDecoder();
	const reader = body.getReader();
	let buffer = "";
	let eventName: string | undefined;
	let data: string[] = [];
	let finished = false;
	try {
		for (;;) {
			const { done, value } = await reader.read();
			if (done) break;
			onBytes();
			buffer += decoder.decode(value, { stream: true });
			const batch: ServerSentEvent[] = [];
			let position = 0;
			for (;;) {
				const newline = buffer.indexOf("\n", position);
				if (newline === -1) break;
				let line = buffer.slice(position, newline);
				position = newline + 1;
				if (line.endsWith("\r")) line = line.slice(0, -1);
				if (line === "") {
					if (data.length > 0) {
						batch.push({ event: eventName, data: data.length === 1 ? data[0] : data.join("\n") });
					}
					eventName = undefined;
					data = [];
					continue;
				}
				if (line.startsWith(":")) continue;
				const colon = line.indexOf(":");
				const field = colon === -1 ? line : line.slice(0, colon);
				let value = colon === -1 ? "" : line.slice(colon + 1);
				if (value.startsWith(" ")) value = value.slice(1);
				if (field === "data") data.push(value);
				else if (field === "event") eventName = value;
			}
			// One slice per network chunk, not per line: keeps reading linear in the body size.
			if (position > 0) buffer = buffer.slice(position);
			if (batch.length > 0) yield batch;
		}
		buffer += decoder.decode();
		// A last event without its blank line (the server closed right after it) still counts.
		if (buffer.startsWith("data:"))
			data.push(
				buffer
					.slice(5)
					.trimStart()
					.replace(/\r?\n?$/, ""),
			);
		if (data.length > 0) yield [{ event: eventName, data: data.join("\n") }];
		finished = true;
	} finally {
		// Stop the download when the consumer stops early (a decoder error, a [DONE] event).
		if (!finished) await reader.cancel().catch(() => {});
		reader.releaseLock();
	}
}
