// `keel models`: the catalogue as a table (or JSON), filtered by provider and search words.
import { type Api, getModels, getProviders, type Model } from "@keel/ai";
import { type Command, EXIT_SUCCESS, parseCommandArguments, UsageError } from "../command.js";
import { readKeelConfig, updateKeelConfig } from "../config/keel-config.js";
import { selectModel } from "../model-selection.js";
import { type Column, formatTable } from "../table.js";
import { colorEnabled, createStyles, type Terminal } from "../terminal.js";

const help = `Usage: keel models [provider] [--search text] [--wide] [--json]
       keel models default [provider/id | alias] [--unset]

Lists the models Keel knows: context window, maximum output tokens, prices in USD per million
tokens (input, output), reasoning and image input. The table fits an 80-column terminal; on a
wider terminal, or with --wide, it also shows the provider, the API, the cache prices and PDF and
audio input (what \`keel -a\` can send).

\`keel models default\` shows the model used when no -m, template or KEEL_MODEL names one;
\`keel models default <model>\` stores it (in $KEEL_HOME/config.json); --unset removes it.

Arguments:
  provider           only this provider's models (e.g. anthropic, openai, openrouter)

Options:
  -s, --search text  only models whose provider, id or name contain every word of text
                     (case-insensitive; repeat the flag to add words)
      --wide         every column, one model a line, whatever the terminal's width
      --json         print the models as a JSON array, every field of each model
      --unset        for default: remove the stored default model
  -h, --help         show this help

Examples:
  keel models
  keel models anthropic
  keel models --search claude --search sonnet
  keel models openai --json | jq -r '.[].id'
  keel models default anthropic/claude-sonnet-4-6`;

export const modelsCommand: Command = {
	name: "models",
	summary: "list the models Keel knows, with their limits and prices",
	help,
	async run(args, terminal) {
		const { values, positionals } = parseCommandArguments("models", args, {
			search: { type: "string", short: "s", multiple: true },
			json: { type: "boolean" },
			wide: { type: "boolean" },
			unset: { type: "boolean" },
		});
		if (positionals[0] === "default") return defaultModel(positionals.slice(1), values.unset === true, terminal);
		if (values.unset) throw new UsageError("--unset belongs to keel models default", "models");
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
		const wide = formatTable(wideColumns, models);
		const width = terminalWidth(terminal);
		const fitsWide = wide.split("\n").every((line) => line.length <= width);
		terminal.stdout.write(`${values.wide || fitsWide ? wide : formatNarrowTable(models, width)}\n`);
		if (terminal.stdout.isTTY) {
			const styles = createStyles(colorEnabled(terminal.stderr, terminal.env));
			terminal.stderr.write(
				styles.dim(`${models.length} models. Use one with: keel -m <provider>/<id> "your prompt"\n`),
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

/** The stdout's width: the terminal's columns, $COLUMNS, else 80. */
function terminalWidth(terminal: Terminal): number {
	if (terminal.stdout.isTTY && terminal.stdout.columns) return terminal.stdout.columns;
	const fromEnvironment = Number(terminal.env.COLUMNS);
	return Number.isInteger(fromEnvironment) && fromEnvironment > 0 ? fromEnvironment : 80;
}

const wideColumns: Column<Model<Api>>[] = [
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
	{ header: "pdf", value: (model) => yesNo(model.input.includes("pdf")) },
	{ header: "audio", value: (model) => yesNo(model.input.includes("audio")) },
];

/** The columns that always show; the model's provider/id comes first. */
const narrowColumns: Column<Model<Api>>[] = [
	{ header: "context", value: (model) => formatTokenCount(model.contextWindow), align: "right" },
	{ header: "max out", value: (model) => formatTokenCount(model.maxTokens), align: "right" },
	{ header: "$ in/M", value: (model) => formatPrice(model.cost.input), align: "right" },
	{ header: "$ out/M", value: (model) => formatPrice(model.cost.output), align: "right" },
	{ header: "think", value: (model) => yesNo(model.reasoning) },
	{ header: "img", value: (model) => yesNo(model.input.includes("image")) },
];

/**
 * The table within `width` columns: provider/id, then the narrow columns. A name too long for its
 * column gets a line of its own, the figures on the next: ids are never cut, so they can be copied.
 */
export function formatNarrowTable(models: Model<Api>[], width: number): string {
	const names = models.map((model) => `${model.provider}/${model.id}`);
	const cells = models.map((model) => narrowColumns.map((column) => column.value(model)));
	const widths = narrowColumns.map((column, index) =>
		Math.max(column.header.length, ...cells.map((row) => row[index].length)),
	);
	const figuresWidth = widths.reduce((sum, columnWidth) => sum + columnWidth + 2, 0);
	const nameWidth = Math.max(10, Math.min(Math.max(5, ...names.map((name) => name.length)), width - figuresWidth));
	const figures = (values: string[]) =>
		values
			.map((value, index) =>
				narrowColumns[index].align === "right" ? value.padStart(widths[index]) : value.padEnd(widths[index]),
			)
			.join("  ");
	const lines = [`${"model".padEnd(nameWidth)}  ${figures(narrowColumns.map((column) => column.header))}`.trimEnd()];
	names.forEach((name, index) => {
		if (name.length <= nameWidth) {
			lines.push(`${name.padEnd(nameWidth)}  ${figures(cells[index])}`.trimEnd());
		} else {
			lines.push(name, `${" ".repeat(nameWidth)}  ${figures(cells[index])}`.trimEnd());
		}
	});
	return lines.join("\n");
}

/** `keel models default [model]`: shows, stores or (--unset) removes the default model. */
function defaultModel(args: string[], unset: boolean, terminal: Terminal): number {
	if (args.length > 1) throw new UsageError(`default takes one model, got ${args.join(" ")}`, "models");
	const [spec] = args;
	if (unset) {
		if (spec !== undefined) throw new UsageError("--unset takes no model", "models");
		updateKeelConfig(terminal.env, (config) => {
			config.defaultModel = undefined;
		});
		terminal.stderr.write("No default model now: pass -m or set KEEL_MODEL.\n");
		return EXIT_SUCCESS;
	}
	if (spec === undefined) {
		const { defaultModel: stored } = readKeelConfig(terminal.env);
		if (stored === undefined) {
			terminal.stderr.write("No default model. Store one with: keel models default <provider/id>\n");
			return EXIT_SUCCESS;
		}
		terminal.stdout.write(`${stored}\n`);
		return EXIT_SUCCESS;
	}
	// Checked against the catalogue (and the aliases) now, so a prompt never fails on it later.
	const model = selectModel(
		"models",
		{ model: spec },
		{ ...terminal.env, KEEL_BASE_URL: undefined, KEEL_API: undefined },
	);
	updateKeelConfig(terminal.env, (config) => {
		config.defaultModel = spec;
	});
	const resolved = `${model.provider}/${model.id}`;
	terminal.stderr.write(`Default model: ${spec}${resolved === spec ? "" : ` (${resolved})`}\n`);
	return EXIT_SUCCESS;
}
