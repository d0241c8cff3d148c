// Run with plain `node` in a project where npm installed @keel/mcp: `node mcp-stdio-tool.mjs` starts
// this same file with `serve` as an MCP server over stdio (built with the MCP SDK that npm installed
// for @keel/mcp), connects to it through @keel/mcp, calls its tool as an AgentTool and prints one
// JSON line for the test.
import { fileURLToPath } from "node:url";

if (process.argv[2] === "serve") {
	const { McpServer } = await import("@modelcontextprotocol/sdk/server/mcp.js");
	const { StdioServerTransport } = await import("@modelcontextprotocol/sdk/server/stdio.js");
	const { z } = await import("zod");
	const server = new McpServer({ name: "adder", version: "1.0.0" });
	server.registerTool(
		"add",
		{ description: "Adds two numbers", inputSchema: { a: z.number(), b: z.number() } },
		async ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }] }),
	);
	await server.connect(new StdioServerTransport());
} else {
	const { connectMcpServer } = await import("@keel/mcp");
	const connection = await connectMcpServer({
		name: "adder",
		transport: { type: "stdio", command: process.execPath, args: [fileURLToPath(import.meta.url), "serve"] },
		connectTimeoutMs: 60_000,
	});
	try {
		const [tool] = connection.tools;
		const result = await tool.execute("call-1", { a: 2, b: 40 });
		console.log(
			JSON.stringify({
				tools: connection.tools.map((each) => each.name),
				parameters: tool.parameters,
				content: result.content,
			}),
		);
	} finally {
		await connection.close();
	}
}
