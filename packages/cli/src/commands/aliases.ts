// `keel aliases`: short names for models, stored in $KEEL_HOME/config.json. `-m fast` then means
// the model the alias names, everywhere a model is chosen.
import { type Command, EXIT_SUCCESS, parseCommandArguments, UsageError } from "../command.js";
import { readKeelConfig, updateKeelConfig } from "../config/keel-config.js";
import { selectModel } from "../model-selection.js";
import { formatTable } from "../table.js";

const help = `Usage: keel aliases [list]
       keel aliases set <alias> <provider/id>
       keel aliases remove <alias>

Short names for models: after \`keel aliases set fast anthropic/claude-haiku-4-5\`, \`-m fast\`
(in keel, keel chat, templates and keel models default) means that model.

Options:
      --json       for list: the aliases as a JSON object
  -h, --help       show this help

Examples:
  keel aliases set fast anthropic/claude-haiku-4-5
  keel -m fast "Hello"
  keel aliases
  keel aliases remove fast`;

const ALIAS_NAME = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/;

export const aliasesCommand: Command = {
	name: "aliases",
	summary: "short names for models: set, list, remove",
	help,
	async run(args, terminal) {
		const { values, positionals } = parseCommandArguments("aliases", args, { json: { type: "boolean" } });
		const [subcommand = "list", name, target, ...extra] = positionals;
		if (subcommand === "list") {
			if (name !== undefined)
				throw new UsageError(`unexpected arguments: ${positionals.slice(1).join(" ")}`, "aliases");
			const { aliases } = readKeelConfig(terminal.env);
			if (values.json) {
				terminal.stdout.write(`${JSON.stringify(aliases, null, 2)}\n`);
			} else if (Object.keys(aliases).length === 0) {
				terminal.stderr.write("No aliases yet. Add one with: keel aliases set fast anthropic/claude-haiku-4-5\n");
			} else {
				const rows = Object.entries(aliases).sort(([a], [b]) => a.localeCompare(b));
				terminal.stdout.write(
					`${formatTable(
						[
							{ header: "alias", value: ([alias]) => alias },
							{ header: "model", value: ([, model]) => model },
						],
						rows,
					)}\n`,
				);
			}
			return EXIT_SUCCESS;
		}
		if (subcommand === "set") {
			if (name === undefined || target === undefined || extra.length > 0) {
				throw new UsageError(
					"set takes an alias and a model: keel aliases set fast anthropic/claude-haiku-4-5",
					"aliases",
				);
			}
			if (!ALIAS_NAME.test(name)) {
				throw new UsageError(`"${name}" is not an alias name: letters, digits, ".", "_", ":" and "-"`, "aliases");
			}
			if (name.includes("/")) throw new UsageError("an alias has no slash: provider/id names a model", "aliases");
			// The target must be a model today; an alias of an alias is resolved once, so it is refused.
			const config = readKeelConfig(terminal.env);
			if (config.aliases[target] !== undefined) {
				throw new UsageError(
					`"${target}" is itself an alias: point ${name} at the model, ${config.aliases[target]}`,
					"aliases",
				);
			}
			const model = selectModel(
				"aliases",
				{ model: target },
				{ ...terminal.env, KEEL_BASE_URL: undefined, KEEL_API: undefined },
			);
			const modelName = `${model.provider}/${model.id}`;
			updateKeelConfig(terminal.env, (stored) => {
				stored.aliases[name] = modelName;
			});
			terminal.stderr.write(`Alias ${name} → ${modelName}\n`);
			return EXIT_SUCCESS;
		}
		if (subcommand === "remove") {
			if (name === undefined || target !== undefined)
				throw new UsageError("remove takes one alias: keel aliases remove fast", "aliases");
			const { aliases } = readKeelConfig(terminal.env);
			if (aliases[name] === undefined) {
				const known = Object.keys(aliases);
				throw new UsageError(
					`no alias "${name}" (${known.length > 0 ? `aliases: ${known.join(", ")}` : "there are no aliases"})`,
					"aliases",
				);
			}
			updateKeelConfig(terminal.env, (stored) => {
				delete stored.aliases[name];
			});
			terminal.stderr.write(`Removed alias ${name}.\n`);
			return EXIT_SUCCESS;
		}
		throw new UsageError(`unknown subcommand "${subcommand}": expected list, set or remove`, "aliases");
	},
};
