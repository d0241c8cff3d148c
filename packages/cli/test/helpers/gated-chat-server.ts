// An OpenAI-compatible server whose answers the test releases piece by piece: each request gets
// its response headers at once, then waits for the test to send the pieces, so a test can look at
// the terminal while the CLI waits for its first token, or while an answer is half written.
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface HeldAnswer {
	/** Sends SSE data to the client. */
	send(piece: string): void;
	/** Ends the response. */
	end(): void;
	/** Resolves when the client closes the connection (an abort). */
	readonly closed: Promise<void>;
	readonly body: unknown;
}

export class GatedChatServer {
	private readonly waiting: ((answer: HeldAnswer) => void)[] = [];
	private readonly arrived: HeldAnswer[] = [];

	private constructor(
		private readonly server: ReturnType<typeof createServer>,
		readonly url: string,
	) {}

	static async start(): Promise<GatedChatServer> {
		let instance: GatedChatServer | undefined;
		const server = createServer((request, response) => {
			let body = "";
			request.setEncoding("utf8");
			request.on("data", (chunk: string) => {
				body += chunk;
			});
			request.on("end", () => instance!.hold(response, JSON.parse(body)));
		});
		await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
		instance = new GatedChatServer(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`);
		return instance;
	}

	private hold(response: ServerResponse, body: unknown): void {
		response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
		response.flushHeaders();
		const answer: HeldAnswer = {
			send: (piece) => response.write(piece),
			end: () => response.end(),
			closed: new Promise((resolve) => response.on("close", () => resolve())),
			body,
		};
		const waiter = this.waiting.shift();
		if (waiter) waiter(answer);
		else this.arrived.push(answer);
	}

	/** The next request, once it has arrived. */
	nextRequest(): Promise<HeldAnswer> {
		const answer = this.arrived.shift();
		if (answer) return Promise.resolve(answer);
		return new Promise((resolve) => this.waiting.push(resolve));
	}

	async close(): Promise<void> {
		this.server.closeAllConnections();
		await new Promise<void>((resolve) => this.server.close(() => resolve()));
	}
}
