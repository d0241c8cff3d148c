import type { AgentTool } from "@keel/agent-core";
import type { TSchema } from "@keel/ai";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { Tool as McpToolDefinition } from "@modelcontextprotocol/sdk/types.js";

/** A server Keel starts as a child process and speaks to over its stdin and stdout (Node only). */
export interface McpStdioServer {
	type: "stdio";
	command: string;
	args?: string[];
	/** The child's environment; by default the SDK's small safe set (PATH, HOME, …), not all of ours. */
	env?: Record<string, string>;
	cwd?: string;
}

/** Credentials for the HTTP transports: a fixed bearer token, or an OAuth provider the SDK drives. */
export interface McpHttpAuth {
	/** Sent as `Authorization: Bearer <token>` on every request; never shown in errors. */
	bearerToken?: string;
	/** The SDK's OAuth client provider, passed through unchanged (token refresh, authorization flow). */
	authProvider?: OAuthClientProvider;
	/** Extra headers for every request. */
	headers?: Record<string, string>;
	/** A fetch to use instead of the global one. */
	fetch?: typeof fetch;
}

/** A server reached over Streamable HTTP (the current MCP HTTP transport). */
export interface McpStreamableHttpServer extends McpHttpAuth {
	type: "streamable-http";
	url: string | URL;
}

/** A server reached over the older HTTP+SSE transport (protocol version 2024-11-05). */
export interface McpSseServer extends McpHttpAuth {
	type: "sse";
	url: string | URL;
}

/** Any other transport built with the SDK (an in-memory pair, a WebSocket, …). */
export interface McpCustomTransport {
	type: "transport";
	transport: Transport;
}

export type McpServerTransport = McpStdioServer | McpStreamableHttpServer | McpSseServer | McpCustomTransport;

/** What a tool call reports to the application (never to the model). */
export interface McpToolDetails {
	/** The server's name as given in the options. */
	server: string;
	/** The tool's name on the server (the agent may know it under a prefixed or cleaned-up name). */
	tool: string;
	/** The result's `structuredContent`, when the tool returned one. */
	structuredContent?: unknown;
	/** On a progress update: the server's progress figures. */
	progress?: { progress: number; total?: number; message?: string };
	/** True when the text was cut to `maxResultCharacters`. */
	truncated?: boolean;
}

/** An MCP tool as an agent tool: its input schema is the parameters schema, validated by the loop. */
export type McpAgentTool = AgentTool<TSchema, McpToolDetails>;

/** A tool the server lists that Keel does not offer to the model, and why. */
export interface SkippedMcpTool {
	name: string;
	reason: string;
}

export interface McpServerOptions {
	/** Names the server in errors and in details; also the default for nothing else. */
	name: string;
	transport: McpServerTransport;
	/** Put before every tool name (e.g. "files_"), so tools of several servers cannot collide. */
	toolNamePrefix?: string;
	/**
	 * How long a call may wait for the server before it ends with an error result (default 60 000 ms).
	 * A progress notification from the server restarts the wait unless `resetTimeoutOnProgress` is false.
	 */
	callTimeoutMs?: number;
	/** Default true: a server that reports progress is alive, so each report restarts the wait. */
	resetTimeoutOnProgress?: boolean;
	/** An upper bound on one call however much progress it reports (default: none). */
	maxCallDurationMs?: number;
	/** How long connecting and listing tools may take (default 30 000 ms). */
	connectTimeoutMs?: number;
	/** Text beyond this many characters is cut from a result, with a note saying so (default 100 000). */
	maxResultCharacters?: number;
	/** Whether calls of these tools wait for the user's approval (see docs/approvals.md). */
	requiresApproval?: boolean | ((tool: McpToolDefinition) => boolean);
	/** Called with the new tool set after the server announced that its tools changed. */
	onToolsChanged?: (tools: McpAgentTool[]) => void;
	/** Called when the connection closes without `close()` (a crashed or stopped server). */
	onClose?: (reason: string) => void;
	/** The client name and version sent to the server; default `keel`. */
	clientInfo?: { name: string; version: string };
}
