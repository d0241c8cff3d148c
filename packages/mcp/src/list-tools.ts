// Lists a server's tools one by one. The SDK's listTools() rejects the whole list when one tool
// does not match the MCP schema; here each tool is checked on its own, so one bad tool is skipped
// (and reported) while the others stay usable.

import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { RequestOptions } from "@modelcontextprotocol/sdk/shared/protocol.js";
import { ResultSchema, type Tool, ToolSchema } from "@modelcontextprotocol/sdk/types.js";
import type { SkippedMcpTool } from "./types.js";

/** A server that pages without end is broken; this many pages is far beyond any real tool list. */
const MAX_PAGES = 100;

export interface ListedTools {
	tools: Tool[];
	skipped: SkippedMcpTool[];
}

export async function listServerTools(client: Client, options: RequestOptions): Promise<ListedTools> {
	const tools: Tool[] = [];
	const skipped: SkippedMcpTool[] = [];
	const seenCursors = new Set<string>();
	let cursor: string | undefined;
	for (let page = 0; page < MAX_PAGES; page++) {
		const result = await client.request(
			{ method: "tools/list", params: cursor === undefined ? {} : { cursor } },
			ResultSchema,
			options,
		);
		const listed = (result as { tools?: unknown }).tools;
		if (!Array.isArray(listed)) throw new Error("tools/list answered without a tools array");
		for (const candidate of listed) {
			const parsed = ToolSchema.safeParse(candidate);
			if (parsed.success) tools.push(parsed.data);
			else
				skipped.push({
					name: toolNameOf(candidate),
					reason: `not a valid MCP tool: ${describeIssues(parsed.error.issues)}`,
				});
		}
		const next = (result as { nextCursor?: unknown }).nextCursor;
		if (typeof next !== "string" || seenCursors.has(next)) return { tools, skipped };
		seenCursors.add(next);
		cursor = next;
	}
	return { tools, skipped };
}

function toolNameOf(candidate: unknown): string {
	const name = (candidate as { name?: unknown } | null)?.name;
	return typeof name === "string" ? name : "(unnamed)";
}

function describeIssues(issues: readonly { path: readonly PropertyKey[]; message: string }[]): string {
	return issues.map((issue) => `${issue.path.map(String).join(".") || "(tool)"}: ${issue.message}`).join("; ");
}
