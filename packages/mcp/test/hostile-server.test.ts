import { spawnSync } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { connectMcpServer, type McpServerConnection } from "../src/index.js";
import { callError, findTool, hostileServerPath, textOf } from "./helpers.js";

const connections: McpServerConnection[] = [];

async function connectHostile(
	options: { callTimeoutMs?: number; maxResultCharacters?: number; onClose?: (reason: string) => void } = {},
) {
	const connection = await connectMcpServer({
		name: "hostile",
		transport: { type: "stdio", command: process.execPath, args: [hostileServerPath] },
		...options,
	});
	connections.push(connection);
	return connection;
}

afterEach(async () => {
	await Promise.all(connections.splice(0).map((connection) => connection.close()));
});

describe("a hostile MCP server over stdio", () => {
	it("skips tools whose input schema Keel cannot use and keeps the others", async () => {
		const connection = await connectHostile();
		expect(connection.tools.map((tool) => tool.name).sort()).toEqual(["crash", "echo", "hang", "huge"]);
		const skipped = Object.fromEntries(connection.skippedTools.map((tool) => [tool.name, tool.reason]));
		expect(Object.keys(skipped).sort()).toEqual(["bad_schema", "no_schema", "string_schema"]);
		expect(skipped.bad_schema).toContain("not valid JSON Schema");
		expect(skipped.string_schema).toBe('not a valid MCP tool: inputSchema.type: Invalid input: expected "object"');
		expect(skipped.no_schema).toContain("not a valid MCP tool");
		const echo = findTool(connection.tools, "echo");
		expect(textOf(await echo.execute("c1", { text: "still works" }))).toBe("still works");
	});

	it("ends a call with a clear error when the server crashes during it, naming its stderr", async () => {
		const closeReasons: string[] = [];
		const connection = await connectHostile({ onClose: (reason) => closeReasons.push(reason) });
		const error = await callError(findTool(connection.tools, "crash").execute("c1", {}));
		expect(error.message).toContain('MCP server "hostile" closed the connection during a call to tool "crash"');
		expect(error.message).toContain("crashing on purpose");
		expect(connection.isConnected).toBe(false);
		expect(closeReasons).toHaveLength(1);

		const after = await callError(findTool(connection.tools, "echo").execute("c2", { text: "hello" }));
		expect(after.message).toContain('MCP server "hostile" is not connected');
	});

	it("ends a call to a hanging server after the call timeout, with a hint to raise it", async () => {
		const connection = await connectHostile({ callTimeoutMs: 200 });
		const error = await callError(findTool(connection.tools, "hang").execute("c1", {}));
		expect(error.message).toBe(
			'MCP server "hostile" did not finish tool "hang" within 200 ms, so the call was cancelled. Raise callTimeoutMs if the tool needs longer.',
		);
		// The server is still there: one hung call does not end the connection.
		expect(textOf(await findTool(connection.tools, "echo").execute("c2", { text: "alive" }))).toBe("alive");
	});

	it("cuts a huge result to maxResultCharacters and says how much was left out", async () => {
		const connection = await connectHostile({ maxResultCharacters: 1_000 });
		const result = await findTool(connection.tools, "huge").execute("c1", { characters: 2_000_000 });
		expect(result.content).toHaveLength(2);
		expect(textOf({ ...result, content: [result.content[0]] })).toBe("x".repeat(1_000));
		expect(textOf({ ...result, content: [result.content[1]] })).toBe(
			"[result truncated: 1999000 of 2000000 characters omitted]",
		);
		expect(result.details.truncated).toBe(true);
	});

	it("ends the call with a clear error when one message is beyond the transport's buffer", async () => {
		const connection = await connectHostile();
		const error = await callError(findTool(connection.tools, "huge").execute("c1", { characters: 12_000_000 }));
		expect(error.message).toContain("ReadBuffer exceeded maximum size");
		expect(error.message).toContain('MCP server "hostile" closed the connection during a call to tool "huge"');
	});

	it("fails to connect within connectTimeoutMs when the server never answers, and stops it", async () => {
		// A process that ignores the end of its stdin, marked so this test can look for it.
		const marker = `keel-mcp-silent-${process.pid}-${Date.now()}`;
		const failure = await callError(
			connectMcpServer({
				name: "silent",
				connectTimeoutMs: 300,
				transport: {
					type: "stdio",
					command: process.execPath,
					args: ["-e", "process.stdin.resume(); setInterval(() => {}, 1000)", marker],
				},
			}),
		);
		expect(failure.message).toMatch(/^Could not connect to MCP server "silent": .*timed out/);
		expect(spawnSync("pgrep", ["-f", marker]).status).toBe(1); // no process matched
	});

	it("fails to connect with the server's stderr when the command exits at once", async () => {
		const failure = await callError(
			connectMcpServer({
				name: "broken",
				transport: {
					type: "stdio",
					command: process.execPath,
					args: ["-e", "console.error('no config found'); process.exit(2)"],
				},
			}),
		);
		expect(failure.message).toContain('Could not connect to MCP server "broken"');
		expect(failure.message).toContain("no config found");
	});
});
