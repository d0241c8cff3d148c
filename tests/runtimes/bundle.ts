// esbuild set up for each target: a page (platform browser), a Cloudflare Worker (platform
// browser with the `workerd`, `worker` and `browser` export conditions that wrangler resolves
// with), a neutral target that assumes no runtime at all, and Node with `@keel/ai` left to Node's
// own resolution.
import { mkdir, mkdtemp, realpath, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type BuildOptions, build, type Metafile, type Plugin } from "esbuild";

export const REPOSITORY_ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** An entry file of tests/runtimes/entries. */
export function entryPath(name: string): string {
	return fileURLToPath(new URL(`./entries/${name}`, import.meta.url));
}

export type BundleTarget = "browser" | "worker" | "neutral" | "node";

const TARGET_OPTIONS: Record<BundleTarget, BuildOptions> = {
	browser: { platform: "browser" },
	// A Worker without Node.js compatibility has no node: modules at all.
	// @see https://developers.cloudflare.com/workers/wrangler/bundling/
	worker: { platform: "browser", conditions: ["workerd", "worker", "browser"] },
	// No runtime's conditions; packages that only have `main` still resolve.
	neutral: { platform: "neutral", mainFields: ["module", "main"] },
	// CommonJS dependencies (ajv) require Node built-ins; an ES module output needs a `require`.
	node: {
		platform: "node",
		banner: { js: 'import { createRequire } from "node:module"; const require = createRequire(import.meta.url);' },
	},
};

export interface Bundle {
	code: string;
	metafile: Metafile;
}

/** One self-contained ES module for the target; nothing is external. Throws esbuild's errors. */
export async function bundleFor(
	target: BundleTarget,
	entry: { file: string } | { contents: string },
	extra: BuildOptions = {},
): Promise<Bundle> {
	const input: BuildOptions =
		"file" in entry
			? { entryPoints: [entry.file] }
			: { stdin: { contents: entry.contents, resolveDir: fileURLToPath(new URL(".", import.meta.url)), loader: "ts" } };
	const result = await build({
		...input,
		...TARGET_OPTIONS[target],
		bundle: true,
		format: "esm",
		target: "es2022",
		write: false,
		metafile: true,
		logLevel: "silent",
		...extra,
	});
	const [output] = result.outputFiles ?? [];
	if (!output || !result.metafile) throw new Error("esbuild returned no output file or metafile");
	return { code: output.text, metafile: result.metafile };
}

/**
 * A fresh directory whose node_modules/@keel/ai links to the installed package, so that a script
 * there imports the built package (its exports map, its dependencies) exactly as a user's does.
 */
export async function createProjectDirectory(): Promise<string> {
	const directory = await mkdtemp(join(tmpdir(), "keel-runtime-node-"));
	await mkdir(join(directory, "node_modules", "@keel"), { recursive: true });
	const installed = await realpath(join(REPOSITORY_ROOT, "node_modules", "@keel", "ai"));
	await symlink(installed, join(directory, "node_modules", "@keel", "ai"), "dir");
	return directory;
}

/** The entry bundled for Node into `directory` with `@keel/ai` left as an import; returns the script's path. */
export async function bundleForNode(entryName: string, directory: string): Promise<string> {
	const outfile = join(directory, `${entryName.replace(/\.ts$/, "")}.mjs`);
	await build({
		entryPoints: [entryPath(entryName)],
		platform: "node",
		bundle: true,
		format: "esm",
		target: "node20",
		external: ["@keel/ai", "@keel/ai/*"],
		outfile,
		logLevel: "silent",
	});
	return outfile;
}

/**
 * Leaves every package but @keel/ai out of the bundle (their imports stay as they are), so that
 * only @keel/ai's own modules are analysed.
 */
export const bundleOnlyKeel: Plugin = {
	name: "bundle-only-keel",
	setup(builder) {
		builder.onResolve({ filter: /^[^./]/ }, (args) =>
			args.path === "@keel/ai" || args.path.startsWith("@keel/ai/") ? undefined : { path: args.path, external: true },
		);
	},
};

/** Node built-in modules an output imports or requires (`node:*`, `fs`, `child_process`, …). */
export function nodeBuiltinImports(metafile: Metafile): string[] {
	const found = new Set<string>();
	for (const input of Object.values(metafile.inputs)) {
		for (const imported of input.imports) if (isNodeBuiltin(imported.path)) found.add(imported.path);
	}
	for (const output of Object.values(metafile.outputs)) {
		for (const imported of output.imports) if (isNodeBuiltin(imported.path)) found.add(imported.path);
	}
	return [...found].sort();
}

const NODE_BUILTINS = new Set([
	"assert",
	"async_hooks",
	"buffer",
	"child_process",
	"cluster",
	"crypto",
	"dgram",
	"dns",
	"events",
	"fs",
	"fs/promises",
	"http",
	"http2",
	"https",
	"module",
	"net",
	"os",
	"path",
	"perf_hooks",
	"process",
	"readline",
	"stream",
	"stream/web",
	"string_decoder",
	"timers",
	"tls",
	"tty",
	"url",
	"util",
	"v8",
	"vm",
	"worker_threads",
	"zlib",
]);

function isNodeBuiltin(path: string): boolean {
	return path.startsWith("node:") || NODE_BUILTINS.has(path);
}

/** The inputs of a bundle that come from the named npm package. */
export function inputsFromPackage(metafile: Metafile, packageName: string): string[] {
	const marker = `node_modules/${packageName}/`;
	return Object.keys(metafile.inputs).filter((path) => path.includes(marker));
}

/** esbuild's errors as lines "what (file:line)", for a test failure message. */
export function describeBuildFailure(error: unknown): string {
	const errors = (error as { errors?: { text: string; location?: { file: string; line: number } | null }[] }).errors;
	if (!Array.isArray(errors)) return error instanceof Error ? error.message : String(error);
	return errors
		.map((item) => (item.location ? `${item.text} (${item.location.file}:${item.location.line})` : item.text))
		.join("\n");
}
