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
