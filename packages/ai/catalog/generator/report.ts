// What the generator prints: models per provider, and what changed since the committed file.
import { decodeProviderModels } from "../../src/models/catalogue-rows.js";
import type { Api, Model } from "../../src/types.js";

/** The JSON text a generated provider file holds in its template literal, unescaped. */
export function providerDataOfFile(text: string): string | undefined {
	const literal = /export default `([\s\S]*)`;/.exec(text)?.[1];
	return literal?.replace(/\\(\\|`|\$\{)/g, (_, escaped: string) => escaped);
}

/**
 * provider/id → that row as JSON, read back from the generated per-provider files
 * (models/generated/<provider>.ts) with the run-time reader, so any change to a row shows.
 */
export function rowsOfGeneratedFiles(files: ReadonlyMap<string, string>): Map<string, string> {
	const rows = new Map<string, string>();
	for (const [path, text] of files) {
		const match = /^models\/generated\/([a-z0-9-]+)\.ts$/.exec(path);
		const data = match ? providerDataOfFile(text) : undefined;
		if (!match || data === undefined) continue;
		let models: Record<string, Model<Api>>;
		try {
			models = decodeProviderModels(data);
		} catch {
			continue; // a file in an older format: its rows count as removed
		}
		for (const [id, model] of Object.entries(models)) rows.set(`${match[1]}/${id}`, JSON.stringify(model));
	}
	return rows;
}

export interface CatalogueChanges {
	added: string[];
	removed: string[];
	changed: string[];
}

export function compareGeneratedFiles(
	previous: ReadonlyMap<string, string>,
	next: ReadonlyMap<string, string>,
): CatalogueChanges {
	const before = rowsOfGeneratedFiles(previous);
	const after = rowsOfGeneratedFiles(next);
	const changes: CatalogueChanges = { added: [], removed: [], changed: [] };
	for (const [key, text] of after) {
		const old = before.get(key);
		if (old === undefined) changes.added.push(key);
		else if (old !== text) changes.changed.push(key);
	}
	for (const key of before.keys()) if (!after.has(key)) changes.removed.push(key);
	return changes;
}

export function countsByProvider(models: readonly Model<Api>[]): Map<string, number> {
	const counts = new Map<string, number>();
	for (const model of models) counts.set(model.provider, (counts.get(model.provider) ?? 0) + 1);
	return counts;
}

const LISTED_PER_KIND = 15;

export function formatReport(models: readonly Model<Api>[], changes: CatalogueChanges | undefined): string {
	const lines: string[] = [];
	const counts = countsByProvider(models);
	const width = Math.max(...[...counts.keys()].map((provider) => provider.length));
	lines.push(`${models.length} models from ${counts.size} providers:`);
	for (const [provider, count] of counts) lines.push(`  ${provider.padEnd(width)}  ${count}`);
	if (!changes) {
		lines.push("No committed catalogue to compare with.");
		return lines.join("\n");
	}
	const total = changes.added.length + changes.removed.length + changes.changed.length;
	if (total === 0) {
		lines.push("No change since the committed catalogue.");
		return lines.join("\n");
	}
	for (const [label, keys] of [
		["added", changes.added],
		["removed", changes.removed],
		["changed", changes.changed],
	] as const) {
		if (keys.length === 0) continue;
		const shown = keys.slice(0, LISTED_PER_KIND).join(", ");
		const more = keys.length > LISTED_PER_KIND ? `, … ${keys.length - LISTED_PER_KIND} more` : "";
		lines.push(`${label} (${keys.length}): ${shown}${more}`);
	}
	return lines.join("\n");
}
