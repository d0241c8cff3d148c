// One MCP tool as an agent tool. Its input schema is the tool's parameters schema, so the agent
// loop validates (and coerces) the model's arguments with AJV before the server sees them.

import type { AgentToolResult, AgentToolUpdateCallback } from "@keel/agent-core";
import { type TSchema, validateJsonValue } from "@keel/ai";
import type { CallToolResult, Progress, Tool } from "@modelcontextprotocol/sdk/types.js";
import { errorResultText, mapResultContent, truncateText } from "./result-content.js";
import type { McpAgentTool, McpToolDetails } from "./types.js";

/** What a tool needs from its connection to run a call. */
export interface ToolCaller {
	readonly serverName: string;
	callTool(
		tool: Tool,
		args: Record<string, unknown>,
		signal: AbortSignal | undefined,
		onProgress: ((progress: Progress) => void) | undefined,
	): Promise<CallToolResult>;
	readonly maxResultCharacters: number;
}

/**
 * Why Keel cannot use this input schema, or undefined when it can. The spec requires an object
 * schema; one AJV cannot compile would fail every call (and some providers reject the request).
 */
export function inputSchemaProblem(tool: Tool): string | undefined {
	if (tool.inputSchema.type !== "object")
		return `its input schema has type "${String(tool.inputSchema.type)}", not "object"`;
	try {
		validateJsonValue(tool.inputSchema as unknown as TSchema, {}, tool.name);
	} catch (error) {
		const message = error instanceof Error ? error.message : String(error);
		// A compile failure; a validation failure of the empty object (a required field) is fine.
		if (message.includes("has an invalid schema")) return `its input schema is not valid JSON Schema: ${message}`;
	}
	return undefined;
}

export function createMcpAgentTool(
	tool: Tool,
	agentName: string,
	caller: ToolCaller,
	requiresApproval: boolean | undefined,
): McpAgentTool {
	const details = (extra: Partial<McpToolDetails> = {}): McpToolDetails => ({
		server: caller.serverName,
		tool: tool.name,
		...extra,
	});
	return {
		name: agentName,
		label: tool.title ?? tool.annotations?.title ?? tool.name,
		description: tool.description ?? "",
		parameters: tool.inputSchema as unknown as TSchema,
		...(requiresApproval === undefined ? {} : { requiresApproval }),
		async execute(
			_toolCallId: string,
			params: unknown,
			signal?: AbortSignal,
			onUpdate?: AgentToolUpdateCallback<McpToolDetails>,
		): Promise<AgentToolResult<McpToolDetails>> {
			const onProgress = onUpdate
				? (progress: Progress) =>
						onUpdate({ content: [{ type: "text", text: describeProgress(progress) }], details: details({ progress }) })
				: undefined;
			const result = await caller.callTool(tool, (params ?? {}) as Record<string, unknown>, signal, onProgress);
			const { content, truncated } = truncateText(mapResultContent(result), caller.maxResultCharacters);
			// The loop turns a throw into an error result with this text for the model.
			if (result.isError) throw new Error(errorResultText(content));
			return {
				content,
				details: details({
					...(result.structuredContent === undefined ? {} : { structuredContent: result.structuredContent }),
					...(truncated ? { truncated } : {}),
				}),
			};
		},
	};
}

function describeProgress(progress: Progress): string {
	const amount = progress.total === undefined ? `${progress.progress}` : `${progress.progress}/${progress.total}`;
	return progress.message ? `Progress ${amount}: ${progress.message}` : `Progress ${amount}`;
}
