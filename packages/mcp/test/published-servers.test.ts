// Against @modelcontextprotocol/server-everything, the reference server published on npm, over
// stdio, Streamable HTTP and HTTP+SSE.
import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectMcpServer, type McpServerConnection, type McpToolDetails } from "../src/index.js";
import { everythingServerPath, findTool, textOf } from "./helpers.js";
import { startPortServer, stopServer } from "./start-http-server.js";

describe("server-everything over stdio", () => {
	let connection: McpServerConnection;
	beforeAll(async () => {
		connection = await connectMcpServer({
			name: "everything",
			transport: { type: "stdio", command: process.execPath, args: [everythingServerPath, "stdio"] },
		});
	});
	afterAll(async () => {
		await connection?.close();
	});

	it("offers its tools with their JSON Schemas as parameters", () => {
		const echo = findTool(connection.tools, "echo");
		expect(echo.parameters).toMatchObject({ type: "object", properties: { message: { type: "string" } } });
		expect(echo.description).toContain("Echo");
		expect(findTool(connection.tools, "get-structured-content").label).toBe("Get Structured Content Tool");
	});

	it("returns a text result", async () => {
		const result = await findTool(connection.tools, "echo").execute("c1", { message: "hello" });
		expect(result.content).toEqual([{ type: "text", text: "Echo: hello" }]);
		expect(result.details).toEqual({ server: "everything", tool: "echo" });
	});

	it("returns an image as image content", async () => {
		const result = await findTool(connection.tools, "get-tiny-image").execute("c1", {});
		const image = result.content.find((block) => block.type === "image");
		expect(image).toMatchObject({ type: "image", mimeType: "image/png" });
		expect(image?.type === "image" && image.data.length > 0).toBe(true);
	});

	it("returns structuredContent in details and once as JSON text", async () => {
		const result = await findTool(connection.tools, "get-structured-content").execute("c1", { location: "Chicago" });
		const weather = { temperature: 36, conditions: "Light rain / drizzle", humidity: 82 };
		expect((result.details as McpToolDetails).structuredContent).toEqual(weather);
		const jsonTexts = result.content.filter(
			(block) => block.type === "text" && block.text.trim().startsWith("{") && JSON.parse(block.text).humidity === 82,
		);
		expect(jsonTexts).toHaveLength(1);
	});

	it("returns an embedded text resource as text naming its URI", async () => {
		const result = await findTool(connection.tools, "get-resource-reference").execute("c1", {
			resourceType: "Text",
			resourceId: 2,
		});
		const resourceText = result.content.find((block) => block.type === "text" && block.text.startsWith("Resource "));
		expect(resourceText?.type === "text" && resourceText.text).toMatch(/^Resource \S+2:\n/);
	});

	it("reports progress notifications as updates before the result", async () => {
		const updates: { text: string; details: McpToolDetails }[] = [];
		const result = await findTool(connection.tools, "trigger-long-running-operation").execute(
			"c1",
			{ duration: 0.6, steps: 3 },
			undefined,
			(partial) => updates.push({ text: textOf(partial), details: partial.details }),
		);
		// The SDK drops a progress notification that it reads together with the result (the
		// call's progress handler is gone by then), so the last steps may be missing; the steps
		// that arrive are reported in order, before the result.
		const steps = updates.map((update) => update.details.progress?.progress ?? 0);
		expect(steps.length).toBeGreaterThanOrEqual(1);
		expect(steps).toEqual([...steps].sort((a, b) => a - b));
		expect(updates[0].text).toMatch(/^Progress [123]\/3/);
		expect(textOf(result)).toContain("Long running operation completed");
	});
});

describe("server-everything over HTTP", () => {
	let streamable: { port: number; process: ChildProcess };
	let sse: { port: number; process: ChildProcess };
	beforeAll(async () => {
		[streamable, sse] = await Promise.all([
			startPortServer(everythingServerPath, ["streamableHttp"], "listening on port"),
			startPortServer(everythingServerPath, ["sse"], "running on port"),
		]);
	});
	afterAll(async () => {
		await Promise.all([streamable, sse].filter(Boolean).map((server) => stopServer(server.process)));
	});

	it("calls a tool over Streamable HTTP on 127.0.0.1", async () => {
		const connection = await connectMcpServer({
			name: "everything-http",
			transport: { type: "streamable-http", url: `http://127.0.0.1:${streamable.port}/mcp` },
		});
		try {
			const result = await findTool(connection.tools, "get-sum").execute("c1", { a: 2, b: 40 });
			expect(textOf(result)).toContain("42");
		} finally {
			await connection.close();
		}
	});

	it("calls a tool over the older HTTP+SSE transport", async () => {
		const connection = await connectMcpServer({
			name: "everything-sse",
			transport: { type: "sse", url: `http://127.0.0.1:${sse.port}/sse` },
		});
		try {
			const result = await findTool(connection.tools, "echo").execute("c1", { message: "over sse" });
			expect(textOf(result)).toBe("Echo: over sse");
		} finally {
			await connection.close();
		}
	});
});
