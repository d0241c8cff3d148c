// Model lists other open-source toolkits publish inside their npm packages, read as data: ids,
// limits, prices and input kinds are facts about the providers' models. Both snapshots are dev
// dependencies of packages/ai (MIT): `@earendil-works/pi-ai` (its newest release) and an older
// release installed under the alias `@earendil-works/pi-ai-0.74` that still lists models the
// newer one dropped. Nothing from these packages runs at Keel's run time.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { ToolkitCatalogue, ToolkitModel } from "./source-types.js";

const aiPackage = dirname(fileURLToPath(new URL("../../package.json", import.meta.url)));

/** Publication dates from the npm registry (`npm view <package> time`), so "newest wins" is deterministic. */
const PUBLISHED: Record<string, string> = {
	"@earendil-works/pi-ai@1.5.2": "2026-11-10",
	"@earendil-works/pi-ai@0.74.2": "2026-07-12",
};

function installedPackage(alias: string): { directory: string; version: string; name: string } {
	const directory = join(aiPackage, "node_modules", ...alias.split("/"));
	let manifest: { name: string; version: string };
	try {
		manifest = JSON.parse(readFileSync(join(directory, "package.json"), "utf8")) as typeof manifest;
	} catch {
		throw new Error(
			`The offline source ${alias} is not installed: run \`pnpm install\` (a dev dependency of packages/ai).`,
		);
	}
	return { directory, version: manifest.version, name: manifest.name };
}

function snapshotName(name: string, version: string): { name: string; published: string } {
	const key = `${name}@${version}`;
	const published = PUBLISHED[key];
	if (!published) {
		throw new Error(`No publication date for ${key}: add it to PUBLISHED in catalog/generator/toolkit-catalogues.ts.`);
	}
	return { name: key, published };
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Newer releases: dist/providers/data/<provider>.json, api → "kind:id" → model. */
function readPerProviderData(directory: string): ToolkitModel[] {
	const dataDirectory = join(directory, "dist", "providers", "data");
	const models: ToolkitModel[] = [];
	for (const file of readdirSync(dataDirectory).sort()) {
		if (!file.endsWith(".json")) continue;
		const byApi = JSON.parse(readFileSync(join(dataDirectory, file), "utf8")) as unknown;
		if (!isRecord(byApi)) continue;
		for (const api of Object.keys(byApi).sort()) {
			const rows = byApi[api];
			if (!isRecord(rows)) continue;
			for (const key of Object.keys(rows).sort()) {
				const row = rows[key];
				if (isRecord(row) && row.type === "chat" && typeof row.id === "string" && typeof row.provider === "string") {
					models.push(row as unknown as ToolkitModel);
				}
			}
		}
	}
	return models;
}

/** Older releases: one generated module exporting MODELS, provider → id → model. */
async function readGeneratedModule(directory: string): Promise<ToolkitModel[]> {
	const module = (await import(pathToFileURL(join(directory, "dist", "models.generated.js")).href)) as {
		MODELS: Record<string, Record<string, ToolkitModel>>;
	};
	const models: ToolkitModel[] = [];
	for (const provider of Object.keys(module.MODELS).sort()) {
		for (const id of Object.keys(module.MODELS[provider]).sort()) models.push(module.MODELS[provider][id]);
	}
	return models;
}

/** Both snapshots, each with its name and publication date. */
export async function loadToolkitCatalogues(): Promise<ToolkitCatalogue[]> {
	const catalogues: ToolkitCatalogue[] = [];
	for (const alias of ["@earendil-works/pi-ai", "@earendil-works/pi-ai-0.74"]) {
		const installed = installedPackage(alias);
		const models = installed.version.startsWith("0.")
			? await readGeneratedModule(installed.directory)
			: readPerProviderData(installed.directory);
		catalogues.push({ ...snapshotName(installed.name, installed.version), models });
	}
	return catalogues;
}
