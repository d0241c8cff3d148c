// The entries of the installed @keel/ai, read from its package.json as a bundler reads them.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { REPOSITORY_ROOT } from "./bundle.js";

interface PackageManifest {
	sideEffects?: boolean | string[];
	exports: Record<string, unknown>;
}

export function readInstalledManifest(): PackageManifest {
	return JSON.parse(
		readFileSync(join(REPOSITORY_ROOT, "node_modules", "@keel", "ai", "package.json"), "utf8"),
	) as PackageManifest;
}

/**
 * Every import specifier the package offers: "@keel/ai", "@keel/ai/testing", … A pattern entry
 * ("./models/*") stands for each built file its target matches ("@keel/ai/models/anthropic", …).
 */
export function packageSpecifiers(): string[] {
	const manifest = readInstalledManifest();
	return Object.entries(manifest.exports)
		.filter(([subpath]) => !subpath.endsWith(".json"))
		.flatMap(([subpath, target]) => {
			if (subpath === ".") return ["@keel/ai"];
			if (!subpath.includes("*")) return [`@keel/ai/${subpath.slice(2)}`];
			return patternMatches(subpath, target).map((match) => `@keel/ai/${subpath.slice(2).replace("*", match)}`);
		});
}

/** What `*` stands for in each built file the pattern entry's JavaScript target matches. */
function patternMatches(subpath: string, target: unknown): string[] {
	const file = typeof target === "string" ? target : (target as { default?: string }).default;
	if (!file) throw new Error(`The exports entry ${subpath} has no default target`);
	const [directory, name] = [file.slice(0, file.lastIndexOf("/")), file.slice(file.lastIndexOf("/") + 1)];
	const [prefix, suffix] = name.split("*");
	const root = join(REPOSITORY_ROOT, "node_modules", "@keel", "ai", directory);
	return readdirSync(root)
		.filter((entry) => entry.startsWith(prefix) && entry.endsWith(suffix))
		.map((entry) => entry.slice(prefix.length, entry.length - suffix.length))
		.sort();
}
