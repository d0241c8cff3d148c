// The entries of the installed @keel/ai, read from its package.json as a bundler reads them.
import { readFileSync } from "node:fs";
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

/** Every import specifier the package offers: "@keel/ai", "@keel/ai/testing", … */
export function packageSpecifiers(): string[] {
	return Object.keys(readInstalledManifest().exports)
		.filter((subpath) => !subpath.endsWith(".json"))
		.map((subpath) => (subpath === "." ? "@keel/ai" : `@keel/ai/${subpath.slice(2)}`));
}
