// `keel templates`: the saved templates (system prompt, model, options, tools) that `keel -t name`
// uses and `keel --save name` writes.
import { type Command, EXIT_SUCCESS, parseCommandArguments, UsageError } from "../command.js";
import { listTemplates, loadTemplate, removeTemplate, templatesDirectory } from "../config/templates.js";

const help = `Usage: keel templates [list]
       keel templates show <name>
       keel templates remove <name>

A template is a saved system prompt, model, options and tools. Save one with --save, use it with -t:

  keel --save reviewer -s "You review code. Be terse." -m anthropic/claude-sonnet-4-6 -o temperature 0.2
  git diff | keel -t reviewer

Flags given with -t override the template's. Templates are JSON files in $KEEL_HOME/templates.

Options:
  -h, --help       show this help

Examples:
  keel templates
  keel templates show reviewer
  keel templates remove reviewer`;

export const templatesCommand: Command = {
	name: "templates",
	summary: "list, show and remove saved prompt templates (keel --save, keel -t)",
	help,
	async run(args, terminal) {
		const { positionals } = parseCommandArguments("templates", args, {});
		const [subcommand = "list", name, ...extra] = positionals;
		if (extra.length > 0) throw new UsageError(`unexpected arguments: ${extra.join(" ")}`, "templates");
		if (subcommand === "list") {
			const names = listTemplates(terminal.env);
			if (names.length === 0) {
				terminal.stderr.write(
					`No templates in ${templatesDirectory(terminal.env)}. Save one with: keel --save <name> -s "…"\n`,
				);
			} else {
				for (const template of names) {
					const { model, system } = loadTemplate("templates", terminal.env, template);
					const summary = [model, system?.replace(/\s+/g, " ").slice(0, 50)].filter(Boolean).join(" · ");
					terminal.stdout.write(`${template}${summary ? `  ${summary}` : ""}\n`);
				}
			}
			return EXIT_SUCCESS;
		}
		if (subcommand !== "show" && subcommand !== "remove") {
			throw new UsageError(`unknown subcommand "${subcommand}": expected list, show or remove`, "templates");
		}
		if (name === undefined)
			throw new UsageError(`${subcommand} needs a template name (keel templates lists them)`, "templates");
		if (subcommand === "show") {
			terminal.stdout.write(`${JSON.stringify(loadTemplate("templates", terminal.env, name), null, 2)}\n`);
		} else {
			removeTemplate("templates", terminal.env, name);
			terminal.stderr.write(`Removed template ${name}.\n`);
		}
		return EXIT_SUCCESS;
	},
};
