// `keel tools`: the built-in tools `-T` gives the model.
import { type Command, EXIT_SUCCESS, parseCommandArguments } from "../command.js";
import { BUILTIN_TOOLS } from "../tools/builtin-tools.js";

const help = `Usage: keel tools [--json]

The built-in tools a model may call when you pass -T <name>. None of them reads or writes files
or reaches the network. Each call is shown and confirmed first; --yes runs them without asking.

Options:
      --json       the tools with their parameter schemas
  -h, --help       show this help

Examples:
  keel tools
  keel -T calculator "What is 1234 * 5678?"
  keel -T current_time -T calculator --yes "How many days until 1 January?"`;

export const toolsCommand: Command = {
	name: "tools",
	summary: "list the built-in tools -T can give the model",
	help,
	async run(args, terminal) {
		const { values } = parseCommandArguments("tools", args, { json: { type: "boolean" } });
		if (values.json) {
			const tools = BUILTIN_TOOLS.map(({ name, description, parameters }) => ({ name, description, parameters }));
			terminal.stdout.write(`${JSON.stringify(tools, null, 2)}\n`);
			return EXIT_SUCCESS;
		}
		const width = Math.max(...BUILTIN_TOOLS.map((tool) => tool.name.length));
		for (const tool of BUILTIN_TOOLS) terminal.stdout.write(`${tool.name.padEnd(width)}  ${tool.description}\n`);
		return EXIT_SUCCESS;
	},
};
