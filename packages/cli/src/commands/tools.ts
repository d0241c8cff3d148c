// `keel tools`: the built-in tools `-T` gives the model, or with --mcp/--mcp-url the tools of those
// MCP servers.
import type { AgentTool } from "@keel/agent-core";
import { type Command, EXIT_SUCCESS, parseCommandArguments } from "../command.js";
import type { Terminal } from "../terminal.js";
import { BUILTIN_TOOLS } from "../tools/builtin-tools.js";
import { connectMcpTools, hasMcpFlags, MCP_OPTIONS, MCP_OPTIONS_HELP } from "../tools/mcp-servers.js";

const help = `Usage: keel tools [--json] [--mcp command | --mcp-url url]…

The built-in tools a model may call when you pass -T <name>. None of them reads or writes files
or reaches the network. With --mcp or --mcp-url, the tools of those MCP servers instead (what
the same flags give the model in keel prompt and keel chat). Each call is shown and confirmed
first; --yes runs them without asking.

Options:
      --json       the tools with their parameter schemas
${MCP_OPTIONS_HELP}
  -h, --help       show this help

Exit codes: 0 listed, 2 a wrong command line or an MCP server that does not start or answer.

Examples:
  keel tools
  keel tools --mcp "npx -y @modelcontextprotocol/server-everything"
  keel tools --mcp-url http://127.0.0.1:3001/mcp --mcp-header "Authorization: Bearer $TOKEN" --json
  keel -T calculator "What is 1234 * 5678?"
  keel -T current_time -T calculator --yes "How many days until 1 January?"`;

export const toolsCommand: Command = {
	name: "tools",
	summary: "list the built-in tools -T can give the model, or an MCP server's tools (--mcp)",
	help,
	async run(args, terminal) {
		const { values } = parseCommandArguments("tools", args, { json: { type: "boolean" }, ...MCP_OPTIONS });
		if (!hasMcpFlags(values)) return printTools(BUILTIN_TOOLS, values.json === true, terminal.stdout);
		const mcp = await connectMcpTools("tools", values, terminal);
		try {
			return printTools(mcp.tools, values.json === true, terminal.stdout);
		} finally {
			await mcp.close();
		}
	},
};

function printTools(tools: AgentTool[], json: boolean, stdout: Terminal["stdout"]): number {
	if (json) {
		const described = tools.map(({ name, description, parameters }) => ({ name, description, parameters }));
		stdout.write(`${JSON.stringify(described, null, 2)}\n`);
		return EXIT_SUCCESS;
	}
	const width = Math.max(0, ...tools.map((tool) => tool.name.length));
	for (const tool of tools) {
		const summary = (tool.description ?? "").replace(/\s+/g, " ").trim();
		stdout.write(`${tool.name.padEnd(width)}  ${summary}\n`);
	}
	return EXIT_SUCCESS;
}
