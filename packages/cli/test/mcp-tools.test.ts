// --mcp and --mcp-url: an MCP server's tools given to the model through @keel/mcp, through pipes
// against the published @modelcontextprotocol/server-everything (over stdio and Streamable HTTP)
// and the wire-test server answering with a tool call; `keel tools --mcp` listing a server's tools;
// and the exit codes and messages for a server that does not start, does not answer or crashes.
import type { ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { WireTestServer } from "@keel/ai/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { findFreePort, startPortServer, stopServer } from "../../mcp/test/start-http-server.js";
import { chatCompletionsResponse } from "./helpers/chat-completions-stream.js";
import { createTemporaryHome, isolatedEnvironment, runKeel } from "./helpers/run-keel.js";

const everythingServer = fileURLToPath(
	new URL("../node_modules/@modelcontextprotocol/server-everything/dist/index.js", import.meta.url),
);
const hostileServer = fileURLToPath(new URL("../../mcp/test/fixtures/hostile-stdio-server.mjs", import.meta.url));
const everythingCommand = `"${process.execPath}" "${everythingServer}" stdio`;

let server: WireTestServer;
beforeAll(async () => {
	server = await WireTestServer.start();
});
afterAll(async () => {
	await server.close();
});
beforeEach(() => server.reset());

interface ChatRequest {
	messages: { role: string; content: unknown; tool_call_id?: string }[];
	tools?: { function: { name: string } }[];
}

const request = (index: number) => server.requests[index].json as ChatRequest;
const environment = () =>
	isolatedEnvironment(createTemporaryHome(), { KEEL_BASE_URL: server.url, KEEL_MODEL: "test-model" });
const LONG = 60_000;

function enqueueSumCall(): void {
	server.enqueue(
		chatCompletionsResponse({ text: [], toolCalls: [{ id: "call_1", name: "get-sum", arguments: '{"a":2,"b":40}' }] }),
		chatCompletionsResponse({ text: ["The sum is 42."] }),
	);
}

describe("--mcp (stdio) with server-everything", () => {
	it(
		"keel --mcp --yes: the model sees the server's tools, its get-sum call runs on the server, the result goes back",
		async () => {
			enqueueSumCall();
			const result = await runKeel(["--mcp", everythingCommand, "--yes", "Add 2 and 40"], { env: environment() });
			expect(result.stderr).not.toContain("Error");
			expect(result.exitCode).toBe(0);
			expect(result.stdout).toBe("The sum is 42.\n");
			expect(request(0).tools?.map((tool) => tool.function.name)).toContain("get-sum");
			const toolResult = request(1).messages.find((message) => message.role === "tool");
			expect(toolResult?.tool_call_id).toBe("call_1");
			expect(String(JSON.stringify(toolResult?.content))).toContain("42");
		},
		LONG,
	);

	it(
		"without --yes and without a terminal to ask, the MCP call is refused as -T calls are",
		async () => {
			enqueueSumCall();
			const result = await runKeel(["prompt", "--mcp", everythingCommand, "Add 2 and 40"], { env: environment() });
			expect(result.exitCode).toBe(0);
			expect(result.stderr).toContain("Refused get-sum: tool calls are confirmed at a terminal and there is none");
			const toolResult = request(1).messages.find((message) => message.role === "tool");
			expect(String(JSON.stringify(toolResult?.content))).toContain("denied");
		},
		LONG,
	);

	it(
		"keel chat --mcp --yes runs the call in a piped chat",
		async () => {
			enqueueSumCall();
			const result = await runKeel(["chat", "--mcp", everythingCommand, "--yes"], {
				env: environment(),
				input: "Add 2 and 40\n",
			});
			expect(result.exitCode).toBe(0);
			expect(result.stdout).toContain("The sum is 42.");
			const toolResult = request(1).messages.find((message) => message.role === "tool");
			expect(String(JSON.stringify(toolResult?.content))).toContain("42");
		},
		LONG,
	);

	it(
		"keel tools --mcp lists the server's tools, and --json their schemas",
		async () => {
			const listed = await runKeel(["tools", "--mcp", everythingCommand], { env: environment() });
			expect(listed.exitCode).toBe(0);
			expect(listed.stdout).toMatch(/^get-sum\s+Returns the sum of two numbers$/m);
			const json = await runKeel(["tools", "--json", "--mcp", everythingCommand], { env: environment() });
			const tools = JSON.parse(json.stdout) as { name: string; parameters: { properties: object } }[];
			expect(tools.find((tool) => tool.name === "get-sum")?.parameters.properties).toHaveProperty("a");
		},
		LONG,
	);
});

describe("--mcp-url (Streamable HTTP) with server-everything", () => {
	let httpServer: { port: number; process: ChildProcess } | undefined;
	beforeAll(async () => {
		httpServer = await startPortServer(everythingServer, ["streamableHttp"], "listening on port");
	}, LONG);
	afterAll(async () => {
		if (httpServer) await stopServer(httpServer.process);
	});

	it(
		"the model's call reaches the HTTP server and its answer goes back; a header is accepted",
		async () => {
			enqueueSumCall();
			const url = `http://127.0.0.1:${httpServer?.port}/mcp`;
			const result = await runKeel(["--mcp-url", url, "--mcp-header", "X-Test: yes", "--yes", "Add 2 and 40"], {
				env: environment(),
			});
			expect(result.stderr).not.toContain("Error");
			expect(result.exitCode).toBe(0);
			expect(result.stdout).toBe("The sum is 42.\n");
			expect(String(JSON.stringify(request(1).messages.find((m) => m.role === "tool")?.content))).toContain("42");
		},
		LONG,
	);
});

describe("MCP servers that fail", () => {
	it("a command that does not start exits 2 and says to check the command", async () => {
		const result = await runKeel(["--mcp", "keel-no-such-mcp-server --flag", "hi"], { env: environment() });
		expect(result.exitCode).toBe(2);
		expect(result.stderr).toContain('Could not connect to MCP server "keel-no-such-mcp-server"');
		expect(result.stderr).toContain("Check that `keel-no-such-mcp-server --flag` starts an MCP server on its own");
		expect(server.requests).toHaveLength(0);
	});

	it("a command that exits at once exits 2", async () => {
		const result = await runKeel(["tools", "--mcp", `"${process.execPath}" -e "process.exit(3)"`], {
			env: environment(),
		});
		expect(result.exitCode).toBe(2);
		expect(result.stderr).toContain("Could not connect to MCP server");
	});

	it("a URL where nothing answers exits 2 and names the URL to check", async () => {
		const port = await findFreePort();
		const result = await runKeel(["tools", "--mcp-url", `http://127.0.0.1:${port}/mcp`], { env: environment() });
		expect(result.exitCode).toBe(2);
		expect(result.stderr).toContain(`Check that an MCP server answers Streamable HTTP at http://127.0.0.1:${port}/mcp`);
		expect(result.stderr).not.toContain("stopped:");
	});

	it("bad flags exit 2: a URL that is not http(s), a header without a colon, a header without a URL, an open quote", async () => {
		const env = environment();
		const notUrl = await runKeel(["tools", "--mcp-url", "ftp://example.test"], { env });
		expect(notUrl.exitCode).toBe(2);
		expect(notUrl.stderr).toContain("--mcp-url expects an http(s) URL");
		const badHeader = await runKeel(["tools", "--mcp-url", "http://127.0.0.1:1/mcp", "--mcp-header", "secret"], {
			env,
		});
		expect(badHeader.exitCode).toBe(2);
		expect(badHeader.stderr).toContain('--mcp-header expects "Name: value"');
		expect(badHeader.stderr).not.toContain("secret");
		const headerAlone = await runKeel(["tools", "--mcp-header", "A: b", "--mcp", "x"], { env });
		expect(headerAlone.stderr).toContain("--mcp-header is sent to --mcp-url servers");
		const quote = await runKeel(["tools", "--mcp", 'node "server.js'], { env });
		expect(quote.exitCode).toBe(2);
		expect(quote.stderr).toContain("unclosed");
	});

	it(
		"a server that crashes during a call: the model gets an error result, stderr says the server stopped, keel exits 0 after the answer",
		async () => {
			server.enqueue(
				chatCompletionsResponse({ text: [], toolCalls: [{ id: "call_1", name: "crash", arguments: "{}" }] }),
				chatCompletionsResponse({ text: ["The tool failed."] }),
			);
			const command = `"${process.execPath}" "${hostileServer}"`;
			const result = await runKeel(["--mcp", command, "--yes", "Crash it"], { env: environment() });
			expect(result.exitCode).toBe(0);
			expect(result.stdout).toBe("The tool failed.\n");
			expect(result.stderr).toContain('MCP server "');
			expect(result.stderr).toContain("stopped:");
			const toolResult = request(1).messages.find((message) => message.role === "tool");
			expect(String(JSON.stringify(toolResult?.content))).toMatch(/crash/i);
		},
		LONG,
	);
});
