// Price tables published as npm packages: `@pydantic/genai-prices` (MIT), a dev dependency of
// packages/ai, lists per-provider prices with cache prices and context-length tiers. The generator
// asks it for the price of each catalogue row on the package's publication date, so the answer does
// not depend on the day the generator runs.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { PriceTable, PriceTableEntry } from "./source-types.js";

const aiPackage = dirname(fileURLToPath(new URL("../../package.json", import.meta.url)));

/** Publication dates from the npm registry (`npm view @pydantic/genai-prices time`). */
const PUBLISHED: Record<string, string> = { "0.1.8": "2026-09-23" };

/**
 * Keel provider → the table's provider id. Only vendors selling their own models at list price:
 * routers and gateways (OpenRouter, Vercel) price per upstream and publish their own lists.
 */
const TABLE_PROVIDER: Record<string, string> = {
	anthropic: "anthropic",
	openai: "openai",
	google: "google",
	"google-vertex": "google",
	mistral: "mistral",
	groq: "groq",
	cerebras: "cerebras",
	xai: "x-ai",
	deepseek: "deepseek",
	together: "together",
	fireworks: "fireworks",
	moonshotai: "moonshotai",
	zai: "zai",
};

type TieredPrice = number | { base: number; tiers: { start: number; price: number }[] } | undefined;

interface TableModule {
	calcPrice(
		usage: { input_tokens: number; output_tokens: number },
		modelId: string,
		options: { providerId: string; timestamp: Date },
	): { model: { id: string; context_window?: number }; model_price: Record<string, TieredPrice> } | null;
}

/** "claude-sonnet-4.5-20250929" and "claude-sonnet-4-5" name the same model; "gpt-5.4-mini" and "gpt-5.4" do not. */
export function sameModelName(catalogueId: string, tableId: string): boolean {
	const normalise = (id: string) =>
		id
			.toLowerCase()
			.replace(/\./g, "-")
			.replace(/-(\d{8}|\d{4}-\d{2}-\d{2}|latest)$/, "");
	return normalise(catalogueId) === normalise(tableId);
}

function base(price: TieredPrice): number {
	if (typeof price === "number") return price;
	return price?.base ?? 0;
}

/** Per-field tiers ({start, price} each) folded into whole-row tiers keyed by their threshold. */
function tiersOf(prices: Record<string, TieredPrice>): NonNullable<PriceTableEntry["cost"]["tiers"]> {
	const fields = {
		input: "input_mtok",
		output: "output_mtok",
		cacheRead: "cache_read_mtok",
		cacheWrite: "cache_write_mtok",
	};
	const thresholds = new Set<number>();
	for (const key of Object.values(fields)) {
		const price = prices[key];
		if (typeof price === "object") for (const tier of price.tiers) thresholds.add(tier.start);
	}
	const priceAt = (key: string, threshold: number) => {
		const price = prices[key];
		if (typeof price !== "object") return base(price);
		const reached = price.tiers
			.filter((tier) => tier.start <= threshold)
			.sort((left, right) => left.start - right.start);
		return reached.length > 0 ? reached[reached.length - 1].price : price.base;
	};
	return [...thresholds]
		.sort((left, right) => left - right)
		.map((threshold) => ({
			inputTokensAbove: threshold,
			input: priceAt(fields.input, threshold),
			output: priceAt(fields.output, threshold),
			cacheRead: priceAt(fields.cacheRead, threshold),
			cacheWrite: priceAt(fields.cacheWrite, threshold),
		}));
}

export async function loadPriceTables(): Promise<PriceTable[]> {
	const directory = join(aiPackage, "node_modules", "@pydantic", "genai-prices");
	let version: string;
	try {
		version = (JSON.parse(readFileSync(join(directory, "package.json"), "utf8")) as { version: string }).version;
	} catch {
		throw new Error(
			"The offline source @pydantic/genai-prices is not installed: run `pnpm install` (a dev dependency of packages/ai).",
		);
	}
	const published = PUBLISHED[version];
	if (!published) {
		throw new Error(
			`No publication date for @pydantic/genai-prices@${version}: add it to PUBLISHED in catalog/generator/price-tables.ts.`,
		);
	}
	const table = (await import(pathToFileURL(join(directory, "dist", "index.js")).href)) as TableModule;
	const timestamp = new Date(`${published}T12:00:00Z`);
	return [
		{
			name: `@pydantic/genai-prices@${version}`,
			published,
			lookup(provider, id) {
				const tableProvider = TABLE_PROVIDER[provider];
				if (!tableProvider) return undefined;
				const result = table.calcPrice({ input_tokens: 0, output_tokens: 0 }, id, {
					providerId: tableProvider,
					timestamp,
				});
				if (!result || !sameModelName(id, result.model.id)) return undefined;
				const prices = result.model_price;
				if (prices.input_mtok === undefined && prices.output_mtok === undefined) return undefined;
				const tiers = tiersOf(prices);
				const entry: PriceTableEntry = {
					cost: {
						input: base(prices.input_mtok),
						output: base(prices.output_mtok),
						cacheRead: base(prices.cache_read_mtok),
						cacheWrite: base(prices.cache_write_mtok),
					},
				};
				if (tiers.length > 0) entry.cost.tiers = tiers;
				if (result.model.context_window) entry.contextWindow = result.model.context_window;
				return entry;
			},
		},
	];
}
