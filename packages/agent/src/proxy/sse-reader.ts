/**
 * Splits a byte stream of Server-Sent Events into the `data` payload of each event. Runs in
 * browsers and Node (TextDecoder and ReadableStream only). Comment lines (`: ping` heartbeats) are
 * reported through `onActivity` only, so an idle watchdog can tell a live connection from a dead one.
 */
export async function* readSseData(
	body: ReadableStream<Uint8Array>,
	onActivity: () => void = () => {},
): AsyncGenerator<string> {
	const reader = body.getReader();
	const decoder = new TextDecoder();
	let buffer = "";
	let dataLines: string[] = [];
	try {
		while (true) {
			const { value, done } = await reader.read();
			if (done) break;
			onActivity();
			buffer += decoder.decode(value, { stream: true });
			// Lines end with \n, \r\n or \r; an event ends at an empty line.
			let lineStart = 0;
			for (let index = 0; index < buffer.length; index++) {
				const character = buffer[index];
				if (character !== "\n" && character !== "\r") continue;
				// A \r at the very end may be the first half of \r\n: wait for the next chunk.
				if (character === "\r" && index === buffer.length - 1) break;
				const line = buffer.slice(lineStart, index);
				if (character === "\r" && buffer[index + 1] === "\n") index++;
				lineStart = index + 1;
				if (line === "") {
					if (dataLines.length > 0) yield dataLines.join("\n");
					dataLines = [];
				} else if (line.startsWith("data:")) {
					dataLines.push(line.slice(line[5] === " " ? 6 : 5));
				}
				// Other fields (event:, id:, retry:) and comments are not used by the proxy protocol.
			}
			buffer = buffer.slice(lineStart);
		}
		buffer += decoder.decode();
		if (buffer.startsWith("data:")) dataLines.push(buffer.slice(buffer[5] === " " ? 6 : 5));
		if (dataLines.length > 0) yield dataLines.join("\n");
	} finally {
		// Stops the download when the consumer stops early (error, abort): the server then sees the
		// disconnect and aborts its upstream call.
		reader.cancel().catch(() => {});
		try {
			reader.releaseLock();
		} catch {
			// Some runtimes refuse while the cancel settles; the stream is finished either way.
		}
	}
}
