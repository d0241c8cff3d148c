// A local WebSocket server (127.0.0.1, a free port) that plays scripted Codex responses: each
// `response.create` message a client sends is answered with the next scripted list of events. It
// counts connections (to pin socket reuse), records handshake headers and every message received,
// and can refuse handshakes with an HTTP status, drop a socket mid-response or never answer.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { type WebSocket, WebSocketServer } from "ws";

export interface ScriptedSocketResponse {
	/** Sent one message each, objects as JSON. */
	events: (Record<string, unknown> | string)[];
	/** After the events, drop the TCP connection without a close frame (code 1006 at the client). */
	drop?: boolean;
	/** After the events, close the socket with this code. */
	closeWith?: number;
	/** After the events, send this message every `everyMs` until the socket closes (a server that only trickles). */
	trickle?: { event: Record<string, unknown> | string; everyMs: number };
}

export class WebSocketTestServer {
	/** Handshakes accepted. */
	connections = 0;
	/** Headers of every handshake, accepted or refused. */
	readonly handshakes: IncomingMessage["headers"][] = [];
	/** Every message received, parsed as JSON. */
	readonly received: Record<string, unknown>[] = [];
	/** When set, handshakes are refused with this HTTP status. */
	refuseStatus: number | undefined;
	private readonly queue: ScriptedSocketResponse[] = [];
	private readonly sockets = new Set<WebSocket>();
	private readonly messageWaiters: (() => void)[] = [];

	private constructor(
		private readonly server: Server,
		private readonly webSocketServer: WebSocketServer,
		/** `http://127.0.0.1:<port>`: a model's baseUrl (the client turns it into ws:). */
		readonly url: string,
	) {}

	static async start(): Promise<WebSocketTestServer> {
		const server = createServer((_request, response) => {
			response.writeHead(404, { "content-type": "application/json" });
			response.end(JSON.stringify({ error: { message: "WebSocket test server: HTTP is not served here" } }));
		});
		const webSockets = new WebSocketServer({ noServer: true });
		await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
		const { port } = server.address() as AddressInfo;
		const instance = new WebSocketTestServer(server, webSockets, `http://127.0.0.1:${port}`);
		server.on("upgrade", (request, socket, head) => instance.upgrade(request, socket as Socket, head));
		return instance;
	}

	enqueue(...responses: ScriptedSocketResponse[]): this {
		this.queue.push(...responses);
		return this;
	}

	/** Sockets open on the server side right now. */
	get openSockets(): number {
		return this.sockets.size;
	}

	/** Resolves once `count` messages in all have been received. */
	async waitForMessages(count: number): Promise<void> {
		while (this.received.length < count) await new Promise<void>((resolve) => this.messageWaiters.push(resolve));
	}

	/** Resolves once no more than `count` sockets are open on the server side. */
	async waitForOpenSockets(count: number): Promise<void> {
		while (this.sockets.size > count) await new Promise<void>((resolve) => this.messageWaiters.push(resolve));
	}

	/** Resolves once no socket is open on the server side. */
	async waitForNoOpenSockets(): Promise<void> {
		await this.waitForOpenSockets(0);
	}

	reset(): void {
		this.connections = 0;
		this.handshakes.length = 0;
		this.received.length = 0;
		this.queue.length = 0;
		this.refuseStatus = undefined;
		for (const socket of this.sockets) socket.terminate();
	}

	async close(): Promise<void> {
		for (const socket of this.sockets) socket.terminate();
		this.webSocketServer.close();
		this.server.closeAllConnections();
		await new Promise<void>((resolve) => this.server.close(() => resolve()));
	}

	private upgrade(request: IncomingMessage, socket: Socket, head: Buffer): void {
		this.handshakes.push(request.headers);
		if (this.refuseStatus !== undefined) {
			const body = JSON.stringify({ error: { message: "refused by the test server" } });
			socket.end(
				`HTTP/1.1 ${this.refuseStatus} Refused\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`,
			);
			return;
		}
		this.webSocketServer.handleUpgrade(request, socket, head, (webSocket) => {
			this.connections++;
			this.sockets.add(webSocket);
			webSocket.on("close", () => {
				this.sockets.delete(webSocket);
				this.wake();
			});
			webSocket.on("message", (data) => this.answer(webSocket, String(data)));
		});
	}

	private answer(webSocket: WebSocket, text: string): void {
		this.received.push(JSON.parse(text) as Record<string, unknown>);
		this.wake();
		const scripted = this.queue.shift();
		if (!scripted) {
			webSocket.send(JSON.stringify({ type: "error", code: "test_server", message: "no scripted response left" }));
			return;
		}
		for (const event of scripted.events) webSocket.send(typeof event === "string" ? event : JSON.stringify(event));
		if (scripted.trickle) {
			const { event, everyMs } = scripted.trickle;
			const text = typeof event === "string" ? event : JSON.stringify(event);
			const timer = setInterval(() => webSocket.send(text), everyMs);
			webSocket.on("close", () => clearInterval(timer));
		}
		if (scripted.drop) webSocket.terminate();
		else if (scripted.closeWith !== undefined) webSocket.close(scripted.closeWith, "closed by the test server");
	}

	private wake(): void {
		for (const waiter of this.messageWaiters.splice(0)) waiter();
	}
}
