// A local ConverseStream endpoint: HTTP/1.1 on 127.0.0.1 (what `fetch` speaks without TLS),
// `application/vnd.amazon.eventstream` frames encoded with @smithy/eventstream-codec, the way
// Bedrock sends them, and error answers with Bedrock's `x-amzn-ErrorType` header and JSON body.
// @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { EventStreamCodec } from "@smithy/eventstream-codec";

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const codec = new EventStreamCodec(
	(bytes) => decoder.decode(bytes),
	(text) => encoder.encode(text),
);

/** One frame of the answer: an event, an exception, or raw bytes (to cut a frame in pieces). */
export type BedrockFrame =
	| { event: string; body: unknown }
	| { exception: string; body: { message: string } }
	| { bytes: Uint8Array };

/** What the server received. */
export interface ReceivedRequest {
	method: string;
	path: string;
	headers: Record<string, string>;
	body: unknown;
	/** The body's bytes as received (the SigV4 payload hash covers them). */
	rawBody: Buffer;
}

/** How the server answers one request. */
export type BedrockAnswer =
	| {
			frames: BedrockFrame[] /** Ends the response without closing (a stall) when true. */;
			hold?: boolean /** Destroys the stream after the frames. */;
			cut?: boolean;
			/** After the frames, writes these bytes every `everyMs` until the client goes away (a trickle). */
			trickle?: { bytes: Uint8Array; everyMs: number };
	  }
	| {
			status: number;
			/** Sent as `x-amzn-ErrorType` unless empty. */
			errorType: string;
			message: string;
			headers?: Record<string, string>;
			/** Sent as the body instead of `{"message": …}`. */
			rawBody?: string;
	  };

export function encodeFrame(frame: BedrockFrame): Uint8Array {
	if ("bytes" in frame) return frame.bytes;
	const body = encoder.encode(JSON.stringify(frame.body));
	if ("exception" in frame) {
		return codec.encode({
			headers: {
				":message-type": { type: "string", value: "exception" },
				":exception-type": { type: "string", value: frame.exception },
				":content-type": { type: "string", value: "application/json" },
			},
			body,
		});
	}
	return codec.encode({
		headers: {
			":message-type": { type: "string", value: "event" },
			":event-type": { type: "string", value: frame.event },
			":content-type": { type: "string", value: "application/json" },
		},
		body,
	});
}

export interface BedrockTestServer {
	url: string;
	requests: ReceivedRequest[];
	/** Destroys the connection of every held response: a body cut mid-stream. */
	cutHeldStreams(): void;
	/** Writes `frames` to every held response and ends it normally. */
	finishHeldStreams(frames: BedrockFrame[]): void;
	close(): Promise<void>;
}

/** Starts the server; `answer` is called once per request, with the request number (0-based). */
export async function startBedrockServer(
	answer: (request: ReceivedRequest, index: number) => BedrockAnswer,
): Promise<BedrockTestServer> {
	const requests: ReceivedRequest[] = [];
	const held = new Set<ServerResponse>();
	const server = createServer((request: IncomingMessage, response: ServerResponse) => {
		const chunks: Buffer[] = [];
		request.on("data", (chunk: Buffer) => chunks.push(chunk));
		request.on("end", () => {
			const rawBody = Buffer.concat(chunks);
			const text = rawBody.toString("utf8");
			const headers: Record<string, string> = {};
			for (const [name, value] of Object.entries(request.headers)) {
				if (typeof value === "string") headers[name] = value;
			}
			const received: ReceivedRequest = {
				method: request.method ?? "",
				path: request.url ?? "",
				headers,
				body: text ? JSON.parse(text) : undefined,
				rawBody,
			};
			requests.push(received);
			const reply = answer(received, requests.length - 1);
			if ("status" in reply) {
				response.writeHead(reply.status, {
					"content-type": "application/json",
					...(reply.errorType
						? { "x-amzn-errortype": `${reply.errorType}:http://internal.amazon.com/coral/com.amazon.bedrock/` }
						: {}),
					...reply.headers,
				});
				response.end(reply.rawBody ?? JSON.stringify({ message: reply.message }));
				return;
			}
			response.writeHead(200, { "content-type": "application/vnd.amazon.eventstream" });
			for (const frame of reply.frames) response.write(encodeFrame(frame));
			if (reply.trickle) {
				const { bytes, everyMs } = reply.trickle;
				const timer = setInterval(() => {
					if (!response.destroyed) response.write(bytes);
				}, everyMs);
				response.on("close", () => clearInterval(timer));
				held.add(response);
			} else if (reply.hold) held.add(response);
			else response.end();
		});
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		requests,
		cutHeldStreams() {
			for (const response of held) response.socket?.destroy();
			held.clear();
		},
		finishHeldStreams(frames) {
			for (const response of held) {
				for (const frame of frames) response.write(encodeFrame(frame));
				response.end();
			}
			held.clear();
		},
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

// The events of a Converse stream, as Bedrock names and shapes them.
export const messageStart = (): BedrockFrame => ({ event: "messageStart", body: { role: "assistant" } });
export const textDelta = (index: number, text: string): BedrockFrame => ({
	event: "contentBlockDelta",
	body: { contentBlockIndex: index, delta: { text } },
});
export const blockStop = (index: number): BedrockFrame => ({
	event: "contentBlockStop",
	body: { contentBlockIndex: index },
});
export const toolUseStart = (index: number, toolUseId: string, name: string): BedrockFrame => ({
	event: "contentBlockStart",
	body: { contentBlockIndex: index, start: { toolUse: { toolUseId, name } } },
});
export const toolUseDelta = (index: number, input: string): BedrockFrame => ({
	event: "contentBlockDelta",
	body: { contentBlockIndex: index, delta: { toolUse: { input } } },
});
export const reasoningDelta = (index: number, reasoning: Record<string, unknown>): BedrockFrame => ({
	event: "contentBlockDelta",
	body: { contentBlockIndex: index, delta: { reasoningContent: reasoning } },
});
export const messageStop = (stopReason: string): BedrockFrame => ({ event: "messageStop", body: { stopReason } });
export const metadata = (usage: Record<string, number>): BedrockFrame => ({
	event: "metadata",
	body: { usage, metrics: { latencyMs: 12 } },
});

/** A whole answer whose text is `text`. */
export function textFrames(text: string): BedrockFrame[] {
	return [
		messageStart(),
		textDelta(0, text),
		blockStop(0),
		messageStop("end_turn"),
		metadata({ inputTokens: 10, outputTokens: 3, totalTokens: 13 }),
	];
}
