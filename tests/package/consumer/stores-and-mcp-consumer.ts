// Type-checked (never run) with consumer.ts: @keel/mcp and @keel/session-postgres as an application
// uses them, an MCP server's tools given to an Agent and a PostgreSQL store for its sessions,
// checked against the published declarations. (@keel/session-sqlite is checked as a tarball only:
// better-sqlite3 compiles from source on install.)
import { Agent } from "@keel/agent-core";
import { connectMcpServer, type McpServerOptions } from "@keel/mcp";
import {
	createPostgresTranscriptStore,
	POSTGRES_SCHEMA_VERSION,
	type PostgresTranscriptStore,
} from "@keel/session-postgres";

const everything: McpServerOptions = {
	name: "everything",
	transport: { type: "stdio", command: "npx", args: ["@modelcontextprotocol/server-everything"] },
};

export async function agentWithMcpTools(): Promise<Agent> {
	const connection = await connectMcpServer(everything);
	return new Agent({ initialState: { tools: connection.tools } });
}

export const store: Promise<PostgresTranscriptStore> = createPostgresTranscriptStore({
	connectionString: "postgres://127.0.0.1:5432/app",
	tenant: "tenant-a",
});
export const schemaVersion: number = POSTGRES_SCHEMA_VERSION;
