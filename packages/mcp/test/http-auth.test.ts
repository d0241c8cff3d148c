// A Streamable HTTP server of our own on 127.0.0.1 that demands a bearer token, reached with a
// fixed token and with an OAuth client provider passed through to the SDK.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectMcpServer } from "../src/index.js";
import { callError, findTool, textOf } from "./helpers.js";

const TOKEN = "test-token-5f2c";

let httpServer: Server;
let url: string;

beforeAll(async () => {
	httpServer = createServer(async (request, response) => {
		if (request.headers.authorization !== `Bearer ${TOKEN}`) {
			response.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ error: "unauthorized" }));
			return;
		}
		// Stateless: a new server and transport per request, as the SDK's stateless example does.
		const server = new McpServer({ name: "guarded", version: "1.0.0" });
		server.registerTool("whoami", { description: "Says who is calling" }, async () => ({
			content: [{ type: "text", text: "an authorised caller" }],
		}));
		const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
		response.on("close", () => {
			void transport.close();
			void server.close();
		});
		await server.connect(transport);
		await transport.handleRequest(request, response);
	});
	await new Promise<void>((resolve) => httpServer.listen(0, "127.0.0.1", resolve));
	url = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}/mcp`;
});

afterAll(async () => {
	httpServer.closeAllConnections();
	await new Promise((resolve) => httpServer.close(resolve));
});

describe("Streamable HTTP with authentication", () => {
	it("sends a bearer token on every request", async () => {
		const connection = await connectMcpServer({
			name: "guarded",
			transport: { type: "streamable-http", url, bearerToken: TOKEN },
		});
		try {
			expect(textOf(await findTool(connection.tools, "whoami").execute("c1", {}))).toBe("an authorised caller");
		} finally {
			await connection.close();
		}
	});

	it("passes an OAuth client provider through to the SDK, which sends its access token", async () => {
		const provider: OAuthClientProvider = {
			redirectUrl: "http://127.0.0.1/callback",
			clientMetadata: { redirect_uris: ["http://127.0.0.1/callback"] },
			clientInformation: () => ({ client_id: "keel-test" }),
			tokens: () => ({ access_token: TOKEN, token_type: "Bearer" }),
			saveTokens: () => {},
			redirectToAuthorization: () => {},
			saveCodeVerifier: () => {},
			codeVerifier: () => "verifier",
		};
		const connection = await connectMcpServer({
			name: "guarded",
			transport: { type: "streamable-http", url, authProvider: provider },
		});
		try {
			expect(textOf(await findTool(connection.tools, "whoami").execute("c1", {}))).toBe("an authorised caller");
		} finally {
			await connection.close();
		}
	});

	it("fails to connect with a wrong token, without showing the token", async () => {
		const error = await callError(
			connectMcpServer({
				name: "guarded",
				transport: { type: "streamable-http", url, bearerToken: "wrong-token-9a1b" },
				connectTimeoutMs: 10_000,
			}),
		);
		expect(error.message).toContain('Could not connect to MCP server "guarded"');
		expect(error.message).not.toContain("wrong-token-9a1b");
	});
});
