import { fileURLToPath } from "node:url";
import type { AgentToolResult } from "@keel/agent-core";
import type { McpAgentTool } from "../src/index.js";

export const hostileServerPath = fileURLToPath(new URL("./fixtures/hostile-stdio-server.mjs", import.meta.url));

export const everythingServerPath = fileURLToPath(
	new URL("../node_modules/@modelcontextprotocol/server-everything/dist/index.js", import.meta.url),
);

export function findTool(tools: readonly McpAgentTool[], name: string): McpAgentTool {
	const tool = tools.find((candidate) => candidate.name === name);
	if (!tool) throw new Error(`no tool ${name} among ${tools.map((candidate) => candidate.name).join(", ")}`);
	return tool;
}

export function textOf(result: AgentToolResult<unknown>): string {
	return result.content
		.map((block) => (block.type === "text" ? block.text : `[${block.type} ${block.mimeType}]`))
		.join("\n");
}

/** Runs a call and returns the error it throws (what the loop turns into an error result). */
export async function callError(promise: Promise<unknown>): Promise<Error> {
	try {
		await promise;
	} catch (error) {
		return error as Error;
	}
	throw new Error("expected the call to fail");
}
