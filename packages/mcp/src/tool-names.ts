// Tool names as providers accept them. MCP allows names a provider rejects (Anthropic and OpenAI
// take ^[a-zA-Z0-9_-]{1,64}$, see https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use
// and https://platform.openai.com/docs/api-reference/chat/create#chat-create-tools), so every
// other character becomes "_" and the name is cut to 64 characters.

const MAX_TOOL_NAME_LENGTH = 64;

/** The name the agent knows an MCP tool by: the prefix plus the tool's name, made provider-safe. */
export function agentToolName(prefix: string, mcpName: string): string {
	const cleaned = `${prefix}${mcpName}`.replace(/[^a-zA-Z0-9_-]/g, "_");
	return cleaned.slice(0, MAX_TOOL_NAME_LENGTH);
}
