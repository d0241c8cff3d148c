// Finds the directories of the packages a package needs at run time, as pnpm installed them:
// its dependencies, their dependencies, and so on, each resolved the way Node resolves a bare
// specifier (the nearest node_modules/<name> walking up from the requiring package's real path).
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";

export interface InstalledPackage {
	name: string;
	version: string;
	directory: string;
}

interface Manifest {
	name: string;
	version: string;
	dependencies?: Record<string, string>;
	optionalDependencies?: Record<string, string>;
	peerDependencies?: Record<string, string>;
	peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

export function readManifest(directory: string): Manifest {
	return JSON.parse(readFileSync(join(directory, "package.json"), "utf8")) as Manifest;
}

/** The installed packages `names` need, starting the lookup at `fromDirectory`. */
export function findInstalledDependencies(fromDirectory: string, names: string[]): InstalledPackage[] {
	const found = new Map<string, InstalledPackage>();
	const pending: { name: string; from: string; optional: boolean }[] = names.map((name) => ({
		name,
		from: fromDirectory,
		optional: false,
	}));
	while (pending.length > 0) {
		const { name, from, optional } = pending.pop()!;
		const directory = resolvePackageDirectory(name, from);
		if (!directory) {
			if (optional) continue;
			throw new Error(`Cannot find the installed package "${name}" from ${from}: run pnpm install`);
		}
		const manifest = readManifest(directory);
		const key = `${manifest.name}@${manifest.version}`;
		if (found.has(key)) continue;
		found.set(key, { name: manifest.name, version: manifest.version, directory });
		for (const dependency of Object.keys(manifest.dependencies ?? {})) {
			pending.push({ name: dependency, from: directory, optional: false });
		}
		for (const dependency of Object.keys(manifest.optionalDependencies ?? {})) {
			pending.push({ name: dependency, from: directory, optional: true });
		}
		// npm installs peer dependencies unless they are marked optional.
		for (const dependency of Object.keys(manifest.peerDependencies ?? {})) {
			const peerOptional = manifest.peerDependenciesMeta?.[dependency]?.optional === true;
			if (!peerOptional) pending.push({ name: dependency, from: directory, optional: false });
		}
	}
	return [...found.values()].sort((left, right) => left.name.localeCompare(right.name));
}

function resolvePackageDirectory(name: string, fromDirectory: string): string | undefined {
	let directory = fromDirectory;
	for (;;) {
		const candidate = join(directory, "node_modules", name);
		if (existsSync(join(candidate, "package.json"))) return realpathSync(candidate);
		const parent = dirname(directory);
		if (parent === directory) return undefined;
		directory = parent;
	}
}
