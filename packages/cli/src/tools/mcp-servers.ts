// `--mcp "<command>"` and `--mcp-url URL`: MCP servers whose tools the model may call, through
// @keel/mcp. A stdio server is started here and stopped when the command ends; an HTTP server is
// reached over Streamable HTTP with the `--mcp-header` headers (e.g. Authorization). A server that
// cannot be started or reached is a usage error saying what to check.
import type { AgentTool } from "@keel/agent-core";
import type { McpServerConnection, McpServerOptions } from "@keel/mcp";
import { UsageError } from "../command.js";
import type { Terminal } from "../terminal.js";

export const MCP_OPTIONS = {
	mcp: { type: "string", multiple: true },
	"mcp-url": { type: "string", multiple: true },
	"mcp-header": { type: "string", multiple: true },
} as const;

export const MCP_OPTIONS_HELP = `      --mcp command        let the model call the tools of an MCP server keel starts with this
                           command (stdio), e.g. --mcp "npx -y @modelcontextprotocol/server-everything";
                           repeatable; each call is confirmed first
      --mcp-url url        the same for an MCP server at a Streamable HTTP URL; repeatable
      --mcp-header header  a header sent to every --mcp-url server, e.g.
                           "Authorization: Bearer $TOKEN"; repeatable`;

export interface McpFlagValues {
	mcp?: string[];
	"mcp-url"?: string[];
	"mcp-header"?: string[];
}

/** The connected servers' tools, and how to stop them (a stdio server's process ends). */
export interface McpTools {
	tools: AgentTool[];
	close(): Promise<void>;
}

export const NO_MCP_TOOLS: McpTools = { tools: [], close: async () => {} };

export function hasMcpFlags(values: McpFlagValues): boolean {
	return (values.mcp?.length ?? 0) + (values["mcp-url"]?.length ?? 0) > 0;
}

/** Connects to every server the flags name; on any failure the ones already started are stopped. */
export async function connectMcpTools(
	commandName: string,
	values: McpFlagValues,
	terminal: Terminal,
): Promise<McpTools> {
	const connectedServers = new Set<string>();
	const servers = mcpServerOptions(commandName, values, terminal, connectedServers);
	if (servers.length === 0) return NO_MCP_TOOLS;
	// Loaded only when a server is given: the MCP SDK is no part of a plain `keel "…"`, and
	// @keel/mcp is an optional peer, installed by those who give the model MCP servers.
	const { connectMcpServer } = await import("@keel/mcp").catch((error: unknown) => {
		if ((error as { code?: string }).code !== "ERR_MODULE_NOT_FOUND") throw error;
		throw new UsageError(
			"--mcp and --mcp-url need the @keel/mcp package next to @keel/cli: npm install @keel/mcp",
			commandName,
		);
	});
	const connections: McpServerConnection[] = [];
	const close = async () => {
		connectedServers.clear();
		await Promise.all(connections.map((connection) => connection.close()));
	};
	try {
		for (const { options, hint } of servers) {
			const connection = await connectMcpServer(options).catch((error: unknown) => {
				const message = error instanceof Error ? error.message : String(error);
				throw new UsageError(`${message}\n${hint}`, commandName);
			});
			connections.push(connection);
			connectedServers.add(connection.serverName);
		}
		const tools = connections.flatMap((connection) => connection.tools as AgentTool[]);
		const seen = new Map<string, string>();
		for (const connection of connections) {
			for (const tool of connection.tools) {
				const other = seen.get(tool.name);
				if (other !== undefined && other !== connection.serverName) {
					throw new UsageError(
						`MCP servers "${other}" and "${connection.serverName}" both have a tool "${tool.name}": give one of them`,
						commandName,
					);
				}
				seen.set(tool.name, connection.serverName);
			}
		}
		return { tools, close };
	} catch (error) {
		await close();
		throw error;
	}
}

interface ServerToConnect {
	options: McpServerOptions;
	/** What to check when the server cannot be reached. */
	hint: string;
}

function mcpServerOptions(
	commandName: string,
	values: McpFlagValues,
	terminal: Terminal,
	connectedServers: Set<string>,
): ServerToConnect[] {
	const headers = parseHeaders(commandName, values["mcp-header"] ?? []);
	if (Object.keys(headers).length > 0 && (values["mcp-url"]?.length ?? 0) === 0) {
		throw new UsageError("--mcp-header is sent to --mcp-url servers: give the server's URL too", commandName);
	}
	// A server that goes away while the model may still call it is said at once; one that never
	// connected is reported by the connection error instead.
	const onClose = (name: string) => (reason: string) => {
		if (connectedServers.has(name)) terminal.stderr.write(`MCP server "${name}" stopped: ${reason}\n`);
	};
	const stdio = (values.mcp ?? []).map((commandLine): ServerToConnect => {
		const [command, ...args] = splitCommandLine(commandName, commandLine);
		const name = command.split("/").at(-1) ?? command;
		return {
			options: { name, transport: { type: "stdio", command, args }, onClose: onClose(name) },
			hint: `Check that \`${commandLine}\` starts an MCP server on its own (it speaks MCP on stdin and stdout).`,
		};
	});
	const http = (values["mcp-url"] ?? []).map((address): ServerToConnect => {
		let url: URL;
		try {
			url = new URL(address);
		} catch {
			throw new UsageError(`--mcp-url expects an http(s) URL, got "${address}"`, commandName);
		}
		if (url.protocol !== "http:" && url.protocol !== "https:") {
			throw new UsageError(`--mcp-url expects an http(s) URL, got "${address}"`, commandName);
		}
		const name = url.host;
		return {
			options: { name, transport: { type: "streamable-http", url, headers }, onClose: onClose(name) },
			hint: `Check that an MCP server answers Streamable HTTP at ${url.origin}${url.pathname} (and any --mcp-header it needs).`,
		};
	});
	return [...stdio, ...http];
}

/** "Name: value" pairs; a header without a colon is a usage error (its value is never echoed). */
function parseHeaders(commandName: string, lines: string[]): Record<string, string> {
	const headers: Record<string, string> = {};
	for (const line of lines) {
		const colon = line.indexOf(":");
		const name = colon > 0 ? line.slice(0, colon).trim() : "";
		if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
			throw new UsageError('--mcp-header expects "Name: value", e.g. "Authorization: Bearer …"', commandName);
		}
		headers[name] = line.slice(colon + 1).trim();
	}
	return headers;
}

/**
 * Splits a command line as a shell would for words: spaces separate, single and double quotes group,
 * a backslash escapes the next character. No variables, globs or pipes: the words run as given.
 */
export function splitCommandLine(commandName: string, line: string): [string, ...string[]] {
	const words: string[] = [];
	let word = "";
	let inWord = false;
	let quote: '"' | "'" | undefined;
	for (let index = 0; index < line.length; index++) {
		const character = line[index] as string;
		if (quote) {
			if (character === quote) quote = undefined;
			else if (character === "\\" && quote === '"' && index + 1 < line.length) word += line[++index];
			else word += character;
		} else if (character === '"' || character === "'") {
			quote = character;
			inWord = true;
		} else if (character === "\\" && index + 1 < line.length) {
			word += line[++index];
			inWord = true;
		} else if (/\s/.test(character)) {
			if (inWord) words.push(word);
			word = "";
			inWord = false;
		} else {
			word += character;
			inWord = true;
		}
	}
	if (quote) throw new UsageError(`--mcp "${line}" has an unclosed ${quote} quote`, commandName);
	if (inWord) words.push(word);
	if (words.length === 0) throw new UsageError("--mcp expects the command that starts an MCP server", commandName);
	return words as [string, ...string[]];
}
