// `keel models`: the catalogue as a table (or JSON), filtered by provider and search words.
import { type Api, getModels, getProviders, type Model } from "@keel/ai";
import { type Command, EXIT_SUCCESS, parseCommandArguments, UsageError } from "../command.js";
import { type Column, formatTable } from "../table.js";
import { colorEnabled, createStyles } from "../terminal.js";

const help = `Usage: keel models [provider] [--search text] [--json]

Lists the models Keel knows: provider, API, context window, maximum output tokens, prices in USD per
million tokens (input, output, cache read, cache write), reasoning and image input.

Arguments:
  provider           only this provider's models (e.g. anthropic, openai, openrouter)

Options:
  -s, --search text  only models whose provider, id or name contain every word of text
                     (case-insensitive; repeat the flag to add words)
      --json         print the models as a JSON array, every field of each model
  -h, --help         show this help

Examples:
  keel models
  keel models anthropic
  keel models --search claude --search sonnet
  keel models openai --json | jq -r '.[].id'`;

export const modelsCommand: Command = {
	name: "models",
	summary: "list the models Keel knows, with their limits and prices",
	help,
	async run(args, terminal) {
		const { values, positionals } = parseCommandArguments("models", args, {
			search: { type: "string", short: "s", multiple: true },
			json: { type: "boolean" },
		});
		if (positionals.length > 1) {
			throw new UsageError(`expected at most one provider, got ${positionals.join(" ")}`, "models");
		}
		const provider = positionals[0];
		const providers = getProviders() as string[];
		if (provider !== undefined && !providers.includes(provider)) {
			throw new UsageError(`unknown provider "${provider}". Known providers: ${providers.join(", ")}`, "models");
		}
		const words = (values.search ?? []).flatMap((text) => text.toLowerCase().split(/\s+/)).filter(Boolean);
		const models = (provider === undefined ? providers : [provider])
			.flatMap((name) => getModels(name as never) as Model<Api>[])
			.filter((model) => matchesEveryWord(model, words));

		if (values.json) {
			terminal.stdout.write(`${JSON.stringify(models, null, 2)}\n`);
			return EXIT_SUCCESS;
		}
		if (models.length === 0) {
			terminal.stderr.write(`No models match${words.length > 0 ? ` "${words.join(" ")}"` : ""}.\n`);
			return EXIT_SUCCESS;
		}
		terminal.stdout.write(`${formatTable(modelColumns, models)}\n`);
		if (terminal.stdout.isTTY) {
			const styles = createStyles(colorEnabled(terminal.stderr, terminal.env));
			terminal.stderr.write(
				styles.dim(`${models.length} models. Use one with: keel prompt -m <provider>/<id> "your prompt"\n`),
			);
		}
		return EXIT_SUCCESS;
	},
};

function matchesEveryWord(model: Model<Api>, words: string[]): boolean {
	const haystack = `${model.provider}/${model.id} ${model.name}`.toLowerCase();
	return words.every((word) => haystack.includes(word));
}

/** 200000 → "200k", 1048576 → "1M": a context window read at a glance. */
export function formatTokenCount(tokens: number): string {
	if (tokens >= 1_000_000) return `${trimNumber(tokens / 1_000_000)}M`;
	if (tokens >= 1_000) return `${trimNumber(tokens / 1_000)}k`;
	return String(tokens);
}

function trimNumber(value: number): string {
	return String(Math.round(value * 10) / 10);
}

/** USD per million tokens: "3", "0.15", "0.075"; "-" for a price the catalogue gives as zero. */
export function formatPrice(perMillion: number): string {
	if (perMillion === 0) return "-";
	return String(Math.round(perMillion * 1000) / 1000);
}

const yesNo = (value: boolean) => (value ? "yes" : "no");

const modelColumns: Column<Model<Api>>[] = [
	{ header: "provider", value: (model) => model.provider },
	{ header: "id", value: (model) => model.id },
	{ header: "api", value: (model) => model.api },
	{ header: "context", value: (model) => formatTokenCount(model.contextWindow), align: "right" },
	{ header: "max out", value: (model) => formatTokenCount(model.maxTokens), align: "right" },
	{ header: "$ in/M", value: (model) => formatPrice(model.cost.input), align: "right" },
	{ header: "$ out/M", value: (model) => formatPrice(model.cost.output), align: "right" },
	{ header: "$ cache r/M", value: (model) => formatPrice(model.cost.cacheRead), align: "right" },
	{ header: "$ cache w/M", value: (model) => formatPrice(model.cost.cacheWrite), align: "right" },
	{ header: "reasoning", value: (model) => yesNo(model.reasoning) },
	{ header: "images", value: (model) => yesNo(model.input.includes("image")) },
];
