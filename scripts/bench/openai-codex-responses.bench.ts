// openai-codex-responses against local servers: over server-sent events (the wire-test server, next
// to the floor: raw fetch + SSE split + JSON.parse of the same body) and over a WebSocket (the Codex
// tests' ws server sends the same events, one message each, on one socket kept for the session).
import {
	closeOpenAICodexWebSockets,
	streamOpenAICodexResponses,
} from "../../packages/ai/src/providers/openai-codex-responses/index.js";
import { WebSocketTestServer } from "../../packages/ai/test/providers/openai-codex-responses/websocket-test-server.js";
import { textBody, toolBody } from "./openai-responses.bench.js";
import { assertStreamSucceeded, benchModel, runProviderWireBench } from "./provider-wire.js";

const base64Url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
// A token shaped like a ChatGPT access token: the provider reads the account id from its claims.
const token = `${base64Url({ alg: "none" })}.${base64Url({ "https://api.openai.com/auth": { chatgpt_account_id: "acct-bench" } })}.bench`;

const model = (baseUrl: string) => benchModel("openai-codex-responses", baseUrl, { provider: "openai-codex" });

/** The data of each event of an SSE body: what the WebSocket sends as one message each. */
function messagesOf(body: string): string[] {
	return body
		.split("\n\n")
		.map((event) =>
			event
				.split("\n")
				.find((line) => line.startsWith("data: "))
				?.slice(6),
		)
		.filter((data): data is string => data !== undefined);
}

export default async function (): Promise<void> {
	const sockets = await WebSocketTestServer.start();
	const messagesByBody = new Map<string, string[]>();
	try {
		await runProviderWireBench({
			path: "/codex/responses",
			textBody,
			toolBody,
			provider: async (server) => {
				assertStreamSucceeded(
					await streamOpenAICodexResponses(model(server.url), { messages: [] }, { apiKey: token }).result(),
				);
			},
			variants: (server) => {
				// The timed loop queues each run's SSE body on the wire-test server; the WebSocket column
				// notes it, drops it from that queue, and has the socket server send its events instead.
				let queuedBody = "";
				const enqueue = server.enqueue.bind(server);
				server.enqueue = (...responses) => {
					queuedBody = String(responses[0]?.body ?? "");
					return enqueue(...responses);
				};
				return {
					"websocket ms": async () => {
						server.reset();
						let messages = messagesByBody.get(queuedBody);
						if (!messages) {
							messages = messagesOf(queuedBody);
							messagesByBody.set(queuedBody, messages);
						}
						sockets.enqueue({ events: messages });
						assertStreamSucceeded(
							await streamOpenAICodexResponses(
								model(sockets.url),
								{ messages: [] },
								{ apiKey: token, transport: "websocket", sessionId: "bench" },
							).result(),
						);
					},
				};
			},
		});
	} finally {
		closeOpenAICodexWebSockets();
		await sockets.close();
	}
}
