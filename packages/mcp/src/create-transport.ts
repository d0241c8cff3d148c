// Builds the SDK transport a server's options describe. The stdio transport starts a process, so
// it is imported only when asked for: the HTTP transports use fetch alone and load in any runtime.

import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { McpHttpAuth, McpServerTransport } from "./types.js";

/** Keeps the last few kilobytes of a server's stderr, to explain a crash. */
export interface StderrTail {
	text(): string;
}

export interface CreatedTransport {
	transport: Transport;
	stderr?: StderrTail;
	/** For a stdio server: stops its process if it still runs, and resolves once it has exited. */
	stopProcess?: () => Promise<void>;
}

const STDERR_TAIL_CHARACTERS = 2_000;

export async function createTransport(options: McpServerTransport): Promise<CreatedTransport> {
	switch (options.type) {
		case "stdio": {
			const { StdioClientTransport, getDefaultEnvironment } = await import("@modelcontextprotocol/sdk/client/stdio.js");
			const { ProcessTrackingTransport } = await import("./stdio-process.js");
			const stdio = new StdioClientTransport({
				command: options.command,
				args: options.args,
				env: options.env ?? getDefaultEnvironment(),
				cwd: options.cwd,
				// Piped rather than inherited: a library does not print, and the tail explains a crash.
				stderr: "pipe",
			});
			const transport = new ProcessTrackingTransport(stdio);
			return { transport, stderr: collectStderr(stdio.stderr), stopProcess: () => transport.stopProcess() };
		}
		case "streamable-http": {
			const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
			const transport = new StreamableHTTPClientTransport(new URL(options.url), httpOptions(options));
			return { transport };
		}
		case "sse": {
			const { SSEClientTransport } = await import("@modelcontextprotocol/sdk/client/sse.js");
			// The SDK sends requestInit's headers on the event-stream GET as well as on each POST.
			const transport = new SSEClientTransport(new URL(options.url), httpOptions(options));
			return { transport };
		}
		case "transport":
			return { transport: options.transport };
		default:
			throw new Error(`Unknown MCP transport type "${(options as { type: unknown }).type}"`);
	}
}

function requestHeaders(auth: McpHttpAuth): Record<string, string> {
	const headers: Record<string, string> = { ...auth.headers };
	if (auth.bearerToken !== undefined) headers.Authorization = `Bearer ${auth.bearerToken}`;
	return headers;
}

function httpOptions(auth: McpHttpAuth) {
	return {
		authProvider: auth.authProvider,
		requestInit: { headers: requestHeaders(auth) },
		fetch: auth.fetch,
	};
}

function collectStderr(stream: { on(event: "data", listener: (chunk: unknown) => void): unknown } | null) {
	if (!stream) return undefined;
	let tail = "";
	stream.on("data", (chunk) => {
		tail = (tail + String(chunk)).slice(-STDERR_TAIL_CHARACTERS);
	});
	return { text: () => tail.trim() };
}
