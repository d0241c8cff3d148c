// A tiny chat server on 127.0.0.1: the page, its bundled script, and POST /api/chat, which runs
// streamText on a Keel model with one tool and answers with the AI SDK's UI message stream.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { convertToModelMessages, stepCountIs, streamText, tool, type UIMessage } from "ai";
import { z } from "zod";

const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>Keel chat</title></head>
<body>
<div id="root"></div>
<script type="module" src="/app.js"></script>
</body></html>`;

export interface ChatServer {
	url: string;
	close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<string> {
	const chunks: Buffer[] = [];
	for await (const chunk of request) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks).toString("utf8");
}

async function answerChat(request: IncomingMessage, response: ServerResponse, model: LanguageModelV3) {
	const { messages } = JSON.parse(await readBody(request)) as { messages: UIMessage[] };
	const result = streamText({
		model,
		messages: await convertToModelMessages(messages),
		tools: {
			weather: tool({
				description: "The weather in a city",
				inputSchema: z.object({ city: z.string() }),
				execute: async ({ city }) => ({ city, forecast: "sunny" }),
			}),
		},
		// A tool call, its result sent back to the model, then the answer: two steps.
		stopWhen: stepCountIs(3),
	});
	const answer = result.toUIMessageStreamResponse();
	const headers: Record<string, string> = {};
	answer.headers.forEach((value, name) => {
		headers[name] = value;
	});
	response.writeHead(answer.status, headers);
	if (answer.body) Readable.fromWeb(answer.body as import("node:stream/web").ReadableStream).pipe(response);
	else response.end();
}

export async function startChatServer(script: string, model: LanguageModelV3): Promise<ChatServer> {
	const server = createServer((request, response) => {
		if (request.method === "GET" && request.url === "/") {
			response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(PAGE);
		} else if (request.method === "GET" && request.url === "/app.js") {
			response.writeHead(200, { "content-type": "text/javascript; charset=utf-8" }).end(script);
		} else if (request.method === "POST" && request.url === "/api/chat") {
			answerChat(request, response, model).catch((error: unknown) => {
				if (!response.headersSent) response.writeHead(500, { "content-type": "text/plain" });
				response.end(error instanceof Error ? error.message : String(error));
			});
		} else {
			response.writeHead(404).end();
		}
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
