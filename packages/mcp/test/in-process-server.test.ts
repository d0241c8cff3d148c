// Servers of our own, built with the SDK's McpServer and connected in memory, for what a test
// must observe on the server's side: cancellation, a changing tool list, and what a result carries.
import { randomBytes } from "node:crypto";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { connectMcpServer, type McpAgentTool, type McpServerConnection } from "../src/index.js";
import { callError, findTool, textOf } from "./helpers.js";

const connections: McpServerConnection[] = [];
afterEach(async () => {
	await Promise.all(connections.splice(0).map((connection) => connection.close()));
});

async function connectInMemory(
	server: McpServer,
	options: { onToolsChanged?: (tools: McpAgentTool[]) => void; maxResultCharacters?: number } = {},
) {
	const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
	await server.connect(serverTransport);
	const connection = await connectMcpServer({
		name: "own",
		transport: { type: "transport", transport: clientTransport },
		...options,
	});
	connections.push(connection);
	return connection;
}

describe("an MCP server of our own, in memory", () => {
	it("cancels the server's request when the run's signal aborts", async () => {
		const server = new McpServer({ name: "own", version: "1.0.0" });
		let serverSawCancel!: () => void;
		const cancelled = new Promise<void>((resolve) => {
			serverSawCancel = resolve;
		});
		let callStarted!: () => void;
		const started = new Promise<void>((resolve) => {
			callStarted = resolve;
		});
		server.registerTool("wait", { description: "Waits until cancelled" }, async (extra) => {
			callStarted();
			await new Promise<void>((resolve) => extra.signal.addEventListener("abort", () => resolve()));
			serverSawCancel();
			return { content: [{ type: "text", text: "cancelled" }] };
		});
		const connection = await connectInMemory(server);
		const controller = new AbortController();
		const call = callError(findTool(connection.tools, "wait").execute("c1", {}, controller.signal));
		await started;
		controller.abort();
		expect((await call).message).toBe('The call to tool "wait" was aborted');
		await cancelled; // notifications/cancelled reached the server and aborted its handler
		expect(connection.isConnected).toBe(true);
	});

	it("refreshes the tool set when the server sends tools/list_changed", async () => {
		const server = new McpServer({ name: "own", version: "1.0.0" });
		server.registerTool("first", { description: "The first tool" }, async () => ({
			content: [{ type: "text", text: "one" }],
		}));
		let changed!: (tools: McpAgentTool[]) => void;
		const nextTools = new Promise<McpAgentTool[]>((resolve) => {
			changed = resolve;
		});
		const connection = await connectInMemory(server, { onToolsChanged: (tools) => changed(tools) });
		expect(connection.tools.map((tool) => tool.name)).toEqual(["first"]);

		server.registerTool(
			"second",
			{ description: "Added later", inputSchema: { word: z.string() } },
			async ({ word }) => ({ content: [{ type: "text", text: `two ${word}` }] }),
		);
		const tools = await nextTools;
		expect(tools.map((tool) => tool.name)).toEqual(["first", "second"]);
		expect(connection.tools.map((tool) => tool.name)).toEqual(["first", "second"]);
		expect(textOf(await findTool(tools, "second").execute("c1", { word: "ok" }))).toBe("two ok");
	});

	it("turns a tool's isError result into an error carrying its text", async () => {
		const server = new McpServer({ name: "own", version: "1.0.0" });
		server.registerTool("fail", { description: "Always fails" }, async () => ({
			content: [{ type: "text", text: "disk full" }],
			isError: true,
		}));
		const connection = await connectInMemory(server);
		expect((await callError(findTool(connection.tools, "fail").execute("c1", {}))).message).toBe("disk full");
	});

	it("prefixes and cleans tool names for providers, keeping the server's name for the call", async () => {
		const server = new McpServer({ name: "own", version: "1.0.0" });
		server.registerTool("read.file", { description: "Dotted name" }, async () => ({
			content: [{ type: "text", text: "read" }],
		}));
		const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
		await server.connect(serverTransport);
		const connection = await connectMcpServer({
			name: "files",
			toolNamePrefix: "files_",
			transport: { type: "transport", transport: clientTransport },
		});
		connections.push(connection);
		const tool = findTool(connection.tools, "files_read_file");
		const result = await tool.execute("c1", {});
		expect(textOf(result)).toBe("read");
		expect(result.details).toEqual({ server: "files", tool: "read.file" });
	});

	it("hands the model an embedded PDF as a file block, byte for byte, and audio as a note", async () => {
		const pdf = Buffer.concat([Buffer.from("%PDF-1.7\n"), randomBytes(300 * 1024)]);
		const server = new McpServer({ name: "own", version: "1.0.0" });
		server.registerTool("fetch_report", { description: "Returns the quarterly report" }, async () => ({
			content: [
				{ type: "text", text: "The report follows." },
				{
					type: "resource",
					resource: { uri: "file:///reports/q3.pdf", mimeType: "application/pdf", blob: pdf.toString("base64") },
				},
				{ type: "audio", data: "UklGRg==", mimeType: "audio/wav" },
			],
		}));
		// A text budget far below the PDF's size: files are not text and are never cut.
		const connection = await connectInMemory(server, { maxResultCharacters: 100 });
		const result = await findTool(connection.tools, "fetch_report").execute("c1", {});
		expect(result.content).toEqual([
			{ type: "text", text: "The report follows." },
			{ type: "file", mimeType: "application/pdf", data: pdf.toString("base64"), filename: "q3.pdf" },
			{ type: "text", text: "[audio (audio/wav) not shown: 8 base64 characters]" },
		]);
		const file = result.content[1] as { data: string };
		expect(Buffer.from(file.data, "base64").equals(pdf)).toBe(true);
	});
});
