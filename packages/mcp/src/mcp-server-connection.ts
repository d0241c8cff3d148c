// A connection to one MCP server and the agent tools it offers. It owns the SDK client: it
// connects, lists tools, refreshes them when the server says they changed, runs calls with a
// timeout and cancellation, notices when the server goes away, and closes (stopping a stdio server).

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { RequestOptions } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
	type CallToolResult,
	CallToolResultSchema,
	ErrorCode,
	McpError,
	type Progress,
	type Tool,
	ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { createTransport, type StderrTail } from "./create-transport.js";
import { describeCallError, errorText } from "./describe-call-error.js";
import { listServerTools } from "./list-tools.js";
import { createMcpAgentTool, inputSchemaProblem, type ToolCaller } from "./mcp-tool.js";
import { agentToolName } from "./tool-names.js";
import type { McpAgentTool, McpServerOptions, SkippedMcpTool } from "./types.js";

export const DEFAULT_CALL_TIMEOUT_MS = 60_000;
export const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_RESULT_CHARACTERS = 100_000;
const MAX_TRANSPORT_ERRORS = 2;
const MAX_TRANSPORT_ERROR_CHARACTERS = 200;

/**
 * Connects to an MCP server and lists its tools. Rejects with an error naming the server when it
 * cannot be started, reached or initialised within `connectTimeoutMs` (a started process is stopped).
 */
export async function connectMcpServer(options: McpServerOptions): Promise<McpServerConnection> {
	const connection = new McpServerConnection(options);
	await connection.start();
	return connection;
}

export class McpServerConnection implements ToolCaller {
	readonly serverName: string;
	readonly maxResultCharacters: number;
	readonly #options: McpServerOptions;
	readonly #client: Client;
	#stderr: StderrTail | undefined;
	#stopProcess: (() => Promise<void>) | undefined;
	#tools: McpAgentTool[] = [];
	#skipped: SkippedMcpTool[] = [];
	#closedReason: string | undefined;
	/** The first few transport errors: the first is the cause, later ones are often its echoes. */
	#transportErrors: string[] = [];
	#closing = false;
	#refreshing: Promise<McpAgentTool[]> | undefined;
	#refreshAgain = false;

	/** Use `connectMcpServer`, which also connects. */
	constructor(options: McpServerOptions) {
		this.#options = options;
		this.serverName = options.name;
		this.maxResultCharacters = options.maxResultCharacters ?? DEFAULT_MAX_RESULT_CHARACTERS;
		this.#client = new Client(options.clientInfo ?? { name: "keel", version: "0.1.0" }, { capabilities: {} });
		this.#client.onerror = (error) => {
			// The SDK reports a progress notification that arrives with or after its result this way;
			// it is harmless and says nothing about why a connection might end.
			if (errorText(error).startsWith("Received a progress notification for an unknown token")) return;
			if (this.#transportErrors.length < MAX_TRANSPORT_ERRORS) {
				this.#transportErrors.push(errorText(error).slice(0, MAX_TRANSPORT_ERROR_CHARACTERS));
			}
		};
		this.#client.onclose = () => this.#handleClose();
		this.#client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
			void this.refreshTools().catch(() => {
				// The old tool set stays; a call of a tool that went away gets the server's error.
			});
		});
	}

	/** The server's tools as agent tools, as of the last listing. */
	get tools(): McpAgentTool[] {
		return [...this.#tools];
	}

	/** Tools the server lists that are not offered to the model, with the reason. */
	get skippedTools(): SkippedMcpTool[] {
		return [...this.#skipped];
	}

	/** False once the connection closed, by `close()` or because the server went away. */
	get isConnected(): boolean {
		return this.#closedReason === undefined;
	}

	/** @internal Called once by `connectMcpServer`. */
	async start(): Promise<void> {
		const connectTimeout = this.#options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
		try {
			const created = await createTransport(this.#options.transport);
			this.#stderr = created.stderr;
			this.#stopProcess = created.stopProcess;
			await this.#client.connect(created.transport, { timeout: connectTimeout });
			await this.#listTools({ timeout: connectTimeout });
		} catch (error) {
			// When the server went away during the handshake, the close reason (with its stderr) says
			// more than the SDK's "Connection closed"; otherwise the error itself is the reason.
			const closedEarly = error instanceof McpError && error.code === ErrorCode.ConnectionClosed;
			const reason = closedEarly && this.#closedReason ? this.#closedReason : errorText(error);
			const stderrNote = reason.includes("its stderr ends with") ? "" : this.#stderrNote();
			await this.close();
			throw new Error(`Could not connect to MCP server "${this.serverName}": ${reason}${stderrNote}`);
		}
	}

	/** Lists the tools again (done by itself when the server sends notifications/tools/list_changed). */
	refreshTools(): Promise<McpAgentTool[]> {
		if (this.#refreshing) {
			this.#refreshAgain = true;
			return this.#refreshing;
		}
		this.#refreshing = (async () => {
			try {
				let tools: McpAgentTool[];
				do {
					this.#refreshAgain = false;
					tools = await this.#listTools({ timeout: this.#callTimeout() });
				} while (this.#refreshAgain);
				this.#options.onToolsChanged?.(this.tools);
				return tools;
			} finally {
				this.#refreshing = undefined;
			}
		})();
		return this.#refreshing;
	}

	/** Closes the connection; a stdio server's process is stopped. Safe to call more than once. */
	async close(): Promise<void> {
		this.#closing = true;
		this.#closedReason ??= "the connection was closed by close()";
		await this.#client.close().catch(() => {});
		await this.#stopProcess?.();
	}

	/** @internal Runs one call for a tool of this connection. */
	async callTool(
		tool: Tool,
		args: Record<string, unknown>,
		signal: AbortSignal | undefined,
		onProgress: ((progress: Progress) => void) | undefined,
	): Promise<CallToolResult> {
		const timeoutMs = this.#callTimeout();
		const failure = () => ({ server: this.serverName, tool: tool.name, timeoutMs, closedReason: this.#closedReason });
		if (this.#closedReason !== undefined) {
			throw new Error(
				`MCP server "${this.serverName}" is not connected (${this.#closedReason}); connect again to call tool "${tool.name}".`,
			);
		}
		const options: RequestOptions = {
			signal,
			timeout: timeoutMs,
			resetTimeoutOnProgress: this.#options.resetTimeoutOnProgress ?? true,
			maxTotalTimeout: this.#options.maxCallDurationMs,
			onprogress: onProgress,
		};
		try {
			return (await this.#client.callTool(
				{ name: tool.name, arguments: args },
				CallToolResultSchema,
				options,
			)) as CallToolResult;
		} catch (error) {
			if (signal?.aborted) throw new Error(`The call to tool "${tool.name}" was aborted`);
			throw new Error(describeCallError(error, failure()));
		}
	}

	async #listTools(options: RequestOptions): Promise<McpAgentTool[]> {
		const listed = await listServerTools(this.#client, options);
		const prefix = this.#options.toolNamePrefix ?? "";
		const tools: McpAgentTool[] = [];
		const skipped = [...listed.skipped];
		const taken = new Set<string>();
		for (const tool of listed.tools) {
			const problem = inputSchemaProblem(tool);
			if (problem) {
				skipped.push({ name: tool.name, reason: problem });
				continue;
			}
			const name = agentToolName(prefix, tool.name);
			if (taken.has(name)) {
				skipped.push({ name: tool.name, reason: `its agent name "${name}" is taken by another tool of this server` });
				continue;
			}
			taken.add(name);
			tools.push(createMcpAgentTool(tool, name, this, this.#requiresApproval(tool)));
		}
		this.#tools = tools;
		this.#skipped = skipped;
		return this.tools;
	}

	#requiresApproval(tool: Tool): boolean | undefined {
		const setting = this.#options.requiresApproval;
		return typeof setting === "function" ? setting(tool) : setting;
	}

	#callTimeout(): number {
		return this.#options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
	}

	#handleClose(): void {
		if (this.#closing) return;
		const cause = this.#transportErrors.length > 0 ? ` after: ${this.#transportErrors.join("; ")}` : "";
		this.#closedReason = `the connection ended${cause}${this.#stderrNote()}`;
		this.#options.onClose?.(this.#closedReason);
	}

	#stderrNote(): string {
		const tail = this.#stderr?.text();
		return tail ? `; its stderr ends with: ${tail}` : "";
	}
}
