// The SDK's types a caller needs to fill the options, so a program need not import the SDK itself.
export type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
export type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
export type { Tool as McpToolDefinition } from "@modelcontextprotocol/sdk/types.js";
export {
	connectMcpServer,
	DEFAULT_CALL_TIMEOUT_MS,
	DEFAULT_CONNECT_TIMEOUT_MS,
	DEFAULT_MAX_RESULT_CHARACTERS,
	McpServerConnection,
} from "./mcp-server-connection.js";
export { mapContentBlock, mapResultContent } from "./result-content.js";
export type {
	McpAgentTool,
	McpCustomTransport,
	McpHttpAuth,
	McpServerOptions,
	McpServerTransport,
	McpSseServer,
	McpStdioServer,
	McpStreamableHttpServer,
	McpToolDetails,
	SkippedMcpTool,
} from "./types.js";
