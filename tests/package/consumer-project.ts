// Builds what the packaging test installs: the workspace packages packed by pnpm (the tool that
// publishes them), tarballs of their third-party dependencies made from what pnpm installed, and an
// empty npm project that installs it all with plain npm and no network.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createTarball } from "./create-tarball.js";
import { findInstalledDependencies, readManifest } from "./installed-dependencies.js";
import type { RegistryPackage } from "./local-registry.js";
import { type CommandResult, environmentWithoutNpmSettings, runCommand, runCommandOrThrow } from "./run-command.js";

export interface PackedPackage {
	name: string;
	version: string;
	tarball: string;
	/** Paths inside the tarball, relative to its `package/` folder. */
	files: string[];
	/** The manifest as published (workspace: ranges replaced). */
	manifest: PublishedManifest;
	/** The tarball extracted: `<extracted>/package.json`, `<extracted>/dist/…`. */
	extracted: string;
}

export interface PublishedManifest {
	name: string;
	version: string;
	license?: string;
	repository?: { type: string; url: string; directory?: string };
	homepage?: string;
	bugs?: { url: string };
	keywords?: string[];
	publishConfig?: { access?: string };
	engines?: Record<string, string>;
	exports: Record<string, string | Record<string, string>>;
	/** Subpath imports ("#…"), which the package's own bundler build imports through. */
	imports?: Record<string, string | Record<string, string>>;
	typesVersions?: Record<string, Record<string, string[]>>;
	dependencies?: Record<string, string>;
	peerDependencies?: Record<string, string>;
	peerDependenciesMeta?: Record<string, { optional?: boolean }>;
	bin?: Record<string, string>;
	scripts?: Record<string, string>;
}

const TIMEOUT_MS = 180_000;

/** Fails with what to run when a package's built files (the targets of its exports) are missing. */
export function assertBuilt(packageDirectory: string): void {
	const manifest = JSON.parse(readFileSync(join(packageDirectory, "package.json"), "utf8")) as PublishedManifest;
	for (const target of exportTargets(manifest)) {
		const built = target.includes("*")
			? targetIsAmong(target, listDirectory(packageDirectory, target.slice(0, target.lastIndexOf("/"))))
			: existsSync(join(packageDirectory, target));
		if (!built) {
			throw new Error(
				`${manifest.name}: ${target} is missing, so the package cannot be packed. ` +
					"Build first: `npx -y pnpm@10.34.9 run build` (or `npm run quickstart`), then `npm test`.",
			);
		}
	}
}

/** The files directly in `directory` of the package, as paths relative to the package ("dist/models/a.js"). */
function listDirectory(packageDirectory: string, directory: string): string[] {
	if (!existsSync(join(packageDirectory, directory))) return [];
	return readdirSync(join(packageDirectory, directory)).map((name) => `${directory}/${name}`);
}

/**
 * Whether an exports target names at least one of `files`: "dist/index.js" itself, or for a pattern
 * target ("dist/models/*.js") a file it matches in that directory.
 */
export function targetIsAmong(target: string, files: readonly string[]): boolean {
	if (!target.includes("*")) return files.includes(target);
	const [before, after] = target.split("*");
	return files.some(
		(file) =>
			file.startsWith(before) && file.endsWith(after) && !file.slice(before.length, -after.length).includes("/"),
	);
}

/**
 * Every file an `exports` or `imports` entry points at, e.g. "dist/index.js", "dist/index.d.ts" and
 * "dist/models/*.js": a bundler fails on any of them that is missing.
 */
export function exportTargets(manifest: PublishedManifest): string[] {
	const entries = [...Object.values(manifest.exports), ...Object.values(manifest.imports ?? {})];
	const targets = entries.flatMap((entry) => (typeof entry === "string" ? [entry] : Object.values(entry)));
	return [...new Set(targets)].map((target) => target.replace(/^\.\//, ""));
}

/** `pnpm pack` in `packageDirectory`, with the pnpm of the root's `packageManager` field, from npm's cache only. */
export async function packWithPnpm(
	repositoryRoot: string,
	packageDirectory: string,
	destination: string,
): Promise<PackedPackage> {
	const rootManifest = JSON.parse(readFileSync(join(repositoryRoot, "package.json"), "utf8")) as {
		packageManager: string;
	};
	// `--offline`: the quick start has already fetched this pnpm with npx; a test never downloads.
	const output = await runCommandOrThrow(
		"npx",
		["--offline", "--yes", rootManifest.packageManager, "pack", "--pack-destination", destination, "--json"],
		{ cwd: packageDirectory, timeoutMs: TIMEOUT_MS },
	).catch((error: Error) => {
		throw new Error(
			`Could not run ${rootManifest.packageManager} from npm's cache (run the quick start once, online). ${error.message}`,
		);
	});
	// The JSON follows the banner pnpm prints for the package's prepack script.
	const packed = JSON.parse(output.slice(output.search(/^\{/m))) as { name: string; version: string; filename: string };
	const extracted = join(destination, `${sanitize(packed.name)}-extracted`);
	mkdirSync(extracted, { recursive: true });
	const tarOptions = { cwd: destination, timeoutMs: TIMEOUT_MS };
	await runCommandOrThrow("tar", ["-xzf", packed.filename, "-C", extracted], tarOptions);
	// The archive's own listing: pnpm's --json file list leaves out the LICENSE it adds from the root.
	const listing = await runCommandOrThrow("tar", ["-tzf", packed.filename], tarOptions);
	const packageRoot = join(extracted, "package");
	return {
		name: packed.name,
		version: packed.version,
		tarball: packed.filename,
		files: listing
			.split("\n")
			.filter((line) => line.startsWith("package/") && !line.endsWith("/"))
			.map((line) => line.slice("package/".length))
			.sort(),
		manifest: JSON.parse(readFileSync(join(packageRoot, "package.json"), "utf8")) as PublishedManifest,
		extracted: packageRoot,
	};
}

/** A copy of a packed package under another version, as if a later release had been published. */
export function repackWithVersion(packed: PackedPackage, version: string, destination: string): string {
	const directory = join(destination, `${sanitize(packed.name)}-${version}`);
	mkdirSync(directory, { recursive: true });
	copyTree(packed.extracted, directory);
	const manifest = JSON.parse(readFileSync(join(directory, "package.json"), "utf8")) as PublishedManifest;
	writeFileSync(join(directory, "package.json"), `${JSON.stringify({ ...manifest, version }, null, 2)}\n`);
	const tarball = join(destination, `${sanitize(packed.name)}-${version}.tgz`);
	createTarball(directory, tarball);
	return tarball;
}

/**
 * Tarballs of the packages `packed` needs, made from pnpm's installation (`node_modules/.pnpm`), so
 * npm installs the exact versions the repository is tested with and needs no registry. Returns
 * `name → file:<tarball>` for npm's `overrides`.
 */
export function createDependencyTarballs(
	roots: { fromDirectory: string; names: string[] }[],
	destination: string,
): Record<string, string> {
	const specifiers: Record<string, string> = {};
	for (const { manifest, tarball } of createInstalledTarballs(roots, destination)) {
		const existing = specifiers[manifest.name];
		if (existing !== undefined) {
			// overrides map a name to one specifier, so two versions of one package cannot be expressed.
			throw new Error(`Two installed versions of ${manifest.name} are needed: ${existing} and ${tarball}`);
		}
		specifiers[manifest.name] = `file:${tarball}`;
	}
	return specifiers;
}

/**
 * The same tarballs, every installed version of each package (a tree may need two versions of one
 * name), with their manifests: what a local registry serves.
 */
export function createInstalledTarballs(
	roots: { fromDirectory: string; names: string[] }[],
	destination: string,
): RegistryPackage[] {
	const made = new Map<string, RegistryPackage>();
	for (const { fromDirectory, names } of roots) {
		for (const installed of findInstalledDependencies(fromDirectory, names)) {
			const tarball = join(destination, `${sanitize(installed.name)}-${installed.version}.tgz`);
			if (made.has(tarball)) continue;
			createTarball(installed.directory, tarball);
			made.set(tarball, { manifest: readManifest(installed.directory), tarball });
		}
	}
	return [...made.values()];
}

export interface NpmProject {
	directory: string;
	/** `npm <args>` in the project (offline, no user config, no scripts); rejects when npm fails. */
	npm(args: string[]): Promise<string>;
	/** The same, resolving with the exit code and output whatever they are. */
	npmResult(args: string[]): Promise<CommandResult>;
}

/**
 * An empty npm project with `package.json` and the files of `fixtureDirectory`, not yet installed.
 * Without `registryUrl` npm runs offline (every package from a local tarball); with it, npm
 * resolves against that registry (a local one: see local-registry.ts).
 */
export function createNpmProject(
	directory: string,
	fixtureDirectory: string,
	manifest: Record<string, unknown>,
	cacheDirectory: string,
	registryUrl?: string,
): NpmProject {
	mkdirSync(directory, { recursive: true });
	for (const file of readdirSync(fixtureDirectory)) copyFileSync(join(fixtureDirectory, file), join(directory, file));
	writeFileSync(join(directory, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
	const userConfig = join(directory, ".npmrc-empty");
	writeFileSync(userConfig, "");
	const npmArguments = (args: string[]) => [
		...args,
		// With an empty cache: offline, every package comes from a local tarball or the install fails;
		// with a registry, from that registry on 127.0.0.1.
		...(registryUrl === undefined ? ["--offline"] : []),
		`--cache=${cacheDirectory}`,
		`--userconfig=${userConfig}`,
		// Offline, never used; set so that no configured registry could be reached either.
		`--registry=${registryUrl ?? "http://127.0.0.1:9/"}`,
		"--no-audit",
		"--no-fund",
		"--no-update-notifier",
		"--ignore-scripts",
	];
	const options = { cwd: directory, env: environmentWithoutNpmSettings(), timeoutMs: TIMEOUT_MS };
	return {
		directory,
		npm: (args) => runCommandOrThrow("npm", npmArguments(args), options),
		npmResult: (args) => runCommand("npm", npmArguments(args), options),
	};
}

function copyTree(from: string, to: string): void {
	for (const entry of readdirSync(from, { withFileTypes: true })) {
		const source = join(from, entry.name);
		const target = join(to, entry.name);
		if (entry.isDirectory()) {
			mkdirSync(target, { recursive: true });
			copyTree(source, target);
		} else {
			copyFileSync(source, target);
		}
	}
}

function sanitize(packageName: string): string {
	return packageName.replace(/^@/, "").replace(/\//g, "-");
}
