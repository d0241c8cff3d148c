// Test helpers for the proxy tests: a node:http server on 127.0.0.1 (port 0) around any handler,
// and a scripted stream function that streams a little text and then waits for its abort signal.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
	type Api,
	AssistantMessageBuilder,
	type AssistantMessageEventStream,
	type Context,
	createAssistantMessageEventStream,
	type Model,
	type SimpleStreamOptions,
} from "@keel/ai";

export interface RunningServer {
	url: string;
	close(): Promise<void>;
}

export async function startServer(
	handler: (request: IncomingMessage, response: ServerResponse) => void | Promise<void>,
): Promise<RunningServer> {
	const server = createServer((request, response) => {
		void handler(request, response);
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

/** A promise with its resolve function, for waiting on events without sleeps. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
	let resolve!: (value: T) => void;
	const promise = new Promise<T>((settle) => {
		resolve = settle;
	});
	return { promise, resolve };
}

/**
 * A stream function that streams "Hello" and then holds the stream open until its signal aborts,
 * when it ends with an aborted error. `upstreamAborted` resolves when the signal fires.
 */
export function createHangingStreamFunction() {
	const upstreamAborted = deferred();
	const received: { model?: Model<Api>; context?: Context; options?: SimpleStreamOptions } = {};
	const streamFunction = (model: Model<Api>, context: Context, options: SimpleStreamOptions) => {
		Object.assign(received, { model, context, options });
		const stream: AssistantMessageEventStream = createAssistantMessageEventStream();
		const builder = new AssistantMessageBuilder(model, (event) => stream.push(event));
		const index = builder.startText();
		builder.appendText(index, "Hello");
		const onAbort = () => {
			upstreamAborted.resolve();
			builder.fail("aborted", "Request was aborted");
			stream.end();
		};
		if (options.signal?.aborted) onAbort();
		else options.signal?.addEventListener("abort", onAbort, { once: true });
		return stream;
	};
	return { streamFunction, upstreamAborted: upstreamAborted.promise, received };
}
