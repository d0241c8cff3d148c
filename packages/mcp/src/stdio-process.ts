// Makes sure a stdio server's process is gone when its connection is closed. The SDK's close ends
// the process's stdin, then sends SIGTERM and SIGKILL after two seconds each, on timers that do
// not keep Node running; and when connecting fails it starts that close without waiting for it.
// A program that gives up on a server and exits could leave the process running. This wrapper
// records the process id once started, so close() can stop the process and wait until it is gone.

import type { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/** How long a process has to exit after SIGTERM before it gets SIGKILL. */
const TERMINATE_GRACE_MS = 2_000;

export class ProcessTrackingTransport implements Transport {
	readonly #inner: StdioClientTransport;
	#processId: number | undefined;
	#hasExited = false;
	readonly #exited: Promise<void>;
	#markExited!: () => void;

	constructor(inner: StdioClientTransport) {
		this.#inner = inner;
		this.#exited = new Promise((resolve) => {
			this.#markExited = resolve;
		});
	}

	get onclose() {
		return this.#inner.onclose;
	}
	set onclose(handler) {
		this.#inner.onclose = () => {
			this.#hasExited = true;
			this.#markExited();
			handler?.();
		};
	}
	get onerror() {
		return this.#inner.onerror;
	}
	set onerror(handler) {
		this.#inner.onerror = handler;
	}
	get onmessage() {
		return this.#inner.onmessage;
	}
	set onmessage(handler) {
		this.#inner.onmessage = handler;
	}

	async start(): Promise<void> {
		await this.#inner.start();
		this.#processId = this.#inner.pid ?? undefined;
	}

	send(message: JSONRPCMessage): Promise<void> {
		return this.#inner.send(message);
	}

	close(): Promise<void> {
		return this.#inner.close();
	}

	/** Resolves once the process started by this transport has exited (at once if none was). */
	async stopProcess(): Promise<void> {
		const processId = this.#processId;
		if (processId === undefined || this.#hasExited || !isRunning(processId)) return;
		sendSignal(processId, "SIGTERM");
		let timer: ReturnType<typeof setTimeout> | undefined;
		const graceOver = new Promise<boolean>((resolve) => {
			timer = setTimeout(() => resolve(false), TERMINATE_GRACE_MS);
		});
		const exited = await Promise.race([this.#exited.then(() => true), graceOver]);
		clearTimeout(timer);
		if (!exited && isRunning(processId)) {
			sendSignal(processId, "SIGKILL");
			await this.#exited;
		}
	}
}

function isRunning(processId: number): boolean {
	try {
		process.kill(processId, 0);
		return true;
	} catch {
		return false;
	}
}

function sendSignal(processId: number, signal: NodeJS.Signals): void {
	try {
		process.kill(processId, signal);
	} catch {
		// Already gone.
	}
}
