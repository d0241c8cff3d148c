// How Anthropic content Keel has no block kind for travels through a conversation.
//
// With server tools (web search, web fetch, code execution, tool search, MCP connectors) and
// programmatic tool calling, the model's turn holds blocks that Anthropic runs and answers itself:
// `server_tool_use`, `web_search_tool_result`, `code_execution_tool_result`, `mcp_tool_use`,
// `container_upload`, … They must be sent back unchanged on the next turn, and a `tool_use` that
// code execution made carries a `caller` naming it, which the API pairs with that block.
// @see https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/server-tools
// @see https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/programmatic-tool-calling
//
// Rather than a new content kind every encoder and caller would have to handle, such a block is a
// `TextContent` with empty text whose `textSignature` holds the raw block. Every API drops empty
// text, and `transformMessages` removes text signatures when a conversation moves to another model,
// so only the same Claude model ever sees the block again, byte for byte. A `tool_use` caller rides
// in `ToolCall.thoughtSignature` the same way.
import type { TextContent, ToolCall } from "../../types.js";

/** What `TextContent.textSignature` holds for an Anthropic block Keel does not model. */
export interface AnthropicContentBlockSignature {
	type: "anthropic_content_block";
	/** The block exactly as Anthropic sent it (a tool input streamed as deltas filled in). */
	block: { type: string; [field: string]: unknown };
}

/** What `ToolCall.thoughtSignature` holds for a `tool_use` that a server tool made. */
export interface AnthropicToolCallerSignature {
	type: "anthropic_tool_caller";
	caller: { type: string; [field: string]: unknown };
}

const BLOCK_PREFIX = '{"type":"anthropic_content_block"';
const CALLER_PREFIX = '{"type":"anthropic_tool_caller"';

export function encodeContentBlockSignature(block: AnthropicContentBlockSignature["block"]): string {
	const signature: AnthropicContentBlockSignature = { type: "anthropic_content_block", block };
	return JSON.stringify(signature);
}

export function encodeToolCallerSignature(caller: AnthropicToolCallerSignature["caller"]): string {
	const signature: AnthropicToolCallerSignature = { type: "anthropic_tool_caller", caller };
	return JSON.stringify(signature);
}

function parseSignature<T>(signature: string | undefined, prefix: string): T | undefined {
	if (!signature?.startsWith(prefix)) return undefined;
	try {
		return JSON.parse(signature) as T;
	} catch {
		return undefined;
	}
}

/**
 * The raw Anthropic block a text block stands for (server tool use, a server tool's result, …), or
 * undefined for ordinary text. Callers use it to show what a server tool did.
 */
export function anthropicContentBlock(content: TextContent): AnthropicContentBlockSignature["block"] | undefined {
	return parseSignature<AnthropicContentBlockSignature>(content.textSignature, BLOCK_PREFIX)?.block;
}

/** The `caller` of a tool call a server tool made (programmatic tool calling), or undefined. */
export function anthropicToolCaller(toolCall: ToolCall): AnthropicToolCallerSignature["caller"] | undefined {
	return parseSignature<AnthropicToolCallerSignature>(toolCall.thoughtSignature, CALLER_PREFIX)?.caller;
}
