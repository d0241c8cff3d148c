import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Plugin } from "esbuild";
import { defineConfig, type Options } from "tsup";
import { writeThirdPartyNotices } from "./build/third-party-notices.js";

// Every entry is its own module so that provider SDKs stay behind dynamic imports.
//
// TypeBox and AJV are bundled into dist (noExternal) for cold start: loading them from
// node_modules costs ≈90 ms and ≈55 ms over an empty `node`, nearly all of it per-file module
// loading (`Type` alone pulls in 200 of TypeBox's ES modules, AJV and ajv-formats 71 CommonJS
// files); bundled, the same code loads in a few ms (`pnpm bench cold-import`). AJV must be bundled
// for a second reason: src/utils/create-ajv.cjs requires it, and only inside the bundle is that
// require() a function that runs on first call (see that file).
// The .d.ts files still import the types from @sinclair/typebox, so `Static` and `TSchema` are the
// package's own, and schemas made by either copy of `Type` are the same plain objects (TypeBox
// marks them with Symbol.for keys, shared across copies).
// The .d.ts files are not made here: `tsc -p tsconfig.build.json` writes one per source module
// into dist/types after this build (the package's build script). tsup's declaration bundling
// (rollup-plugin-dts) took 75 s of CPU for this package; tsc takes 10 s.
const publicEntries = {
	index: "src/index.ts",
	"testing/index": "src/testing/index.ts",
	"provider-kit/index": "src/provider-kit/index.ts",
	"tracing/index": "src/tracing/index.ts",
	"credentials/index": "src/credentials/index.ts",
	"credentials/node": "src/credentials/node/index.ts",
	"providers/anthropic": "src/providers/anthropic/index.ts",
	"providers/openai-completions": "src/providers/openai-completions/index.ts",
	"providers/openai-responses": "src/providers/openai-responses/index.ts",
	"providers/azure-openai-responses": "src/providers/azure-openai-responses/index.ts",
	"providers/mistral-conversations": "src/providers/mistral-conversations/index.ts",
	"providers/google-generative-ai": "src/providers/google-generative-ai/index.ts",
	"providers/google-vertex": "src/providers/google-vertex/index.ts",
	"providers/bedrock-converse-stream": "src/providers/bedrock-converse-stream/index.ts",
	"providers/openai-codex-responses": "src/providers/openai-codex-responses/index.ts",
};

// The source maps name the original file and line of each position (what a stack trace needs) but
// leave out the sources' text, which is published elsewhere: with it, the maps were 2.4 of the
// package's 5.6 MB, most of it AJV's and TypeBox's code again.
function mapsWithoutSourcesContent(options: { sourcesContent?: boolean }): void {
	options.sourcesContent = false;
}

// AJV and ajv-formats are 280 KB of the root's code. Bundled into dist/index.js they run only on
// the first validation, but Node still compiles them on every import. For Node they go into a file
// of their own, dist/internal/create-ajv.cjs (onFirstUseBuild below), which validation.ts's import of
// ./create-ajv.cjs is pointed at: it is required on the first validation. The require() is resolved
// from the module it lands in, so that module must sit in dist/ itself (checked after the build).
// Bundlers get dist/module, where AJV stays bundled (and is dropped when nothing validates).
const AJV_FILE = "internal/create-ajv.cjs";
const createAjvOnFirstUse: Plugin = {
	name: "create-ajv-on-first-use",
	setup(build) {
		build.onResolve({ filter: /\/create-ajv\.cjs$/ }, (args) =>
			args.kind === "import-statement" ? { path: "create-ajv-on-first-use", namespace: "keel-node" } : undefined,
		);
		build.onLoad({ filter: /^create-ajv-on-first-use$/, namespace: "keel-node" }, () => ({
			loader: "js",
			contents: `import { createRequire } from "node:module";
const requireFromDist = createRequire(import.meta.url);
export function createAjv(options) {
	return requireFromDist(${JSON.stringify(`./${AJV_FILE}`)}).createAjv(options);
}`,
		}));
	},
};

// Each loader resolves its file from the module it lands in, so that module must sit in dist/ itself.
function assertLoadersInDistRoot(): void {
	const modules = readdirSync(new URL("./dist/", import.meta.url), { recursive: true, encoding: "utf8" }).filter(
		(file) => file.endsWith(".js") && !file.startsWith("module/"),
	);
	for (const loaded of [AJV_FILE, CATALOGUE_DATA_FILE]) {
		const holders = modules.filter((file) =>
			readFileSync(new URL(`./dist/${file}`, import.meta.url), "utf8").includes(`./${loaded}`),
		);
		if (holders.length === 0 || holders.some((file) => file.includes("/"))) {
			throw new Error(
				`The loader of ${loaded} must be in a module of dist/ itself, found in: ${holders.join(", ") || "none"}`,
			);
		}
	}
}

// The catalogue's data, 183 KB of JSON text in one module per provider, is parsed on the first
// lookup of a provider, but Node compiled all of it on every import. For Node it goes into
// dist/internal/catalogue-data.cjs (onFirstUseBuild below): catalogue.ts's import of
// models.generated.js gets an object with one getter per provider, and the first getter read
// requires the file. The providers are the generated modules' names, known at build time.
const CATALOGUE_DATA_FILE = "internal/catalogue-data.cjs";
const catalogueProviders = readdirSync(new URL("./src/models/generated/", import.meta.url))
	.filter((name) => name.endsWith(".ts"))
	.map((name) => name.slice(0, -3));
const catalogueDataOnFirstUse: Plugin = {
	name: "catalogue-data-on-first-use",
	setup(build) {
		build.onResolve({ filter: /\/models\.generated\.js$/ }, (args) =>
			args.importer.endsWith("/src/models/catalogue.ts")
				? { path: "catalogue-data-on-first-use", namespace: "keel-node" }
				: undefined,
		);
		build.onLoad({ filter: /^catalogue-data-on-first-use$/, namespace: "keel-node" }, () => ({
			loader: "js",
			contents: `import { createRequire } from "node:module";
const requireFromDist = createRequire(import.meta.url);
let loaded;
const data = () => (loaded ??= requireFromDist(${JSON.stringify(`./${CATALOGUE_DATA_FILE}`)}).GENERATED_PROVIDER_DATA);
export const GENERATED_PROVIDER_DATA = Object.freeze(
	Object.defineProperties(
		{},
		Object.fromEntries(
			${JSON.stringify(catalogueProviders)}.map((provider) => [provider, { enumerable: true, get: () => data()[provider] }]),
		),
	),
);`,
		}));
	},
};

// Node-only modules (credential files, instance metadata, the AWS credential chain, a WebSocket that
// sends headers) that browsers and Workers cannot use: dist/module, the bundlers' build, imports each through the package's
// "imports" map (package.json), whose "browser" condition (browsers, and Workers: wrangler resolves
// with workerd, worker, browser) gives a small `<name>.browser.ts` that fails clearly or finds
// nothing, and whose "default" gives the module itself (a Node program bundled without the "node"
// condition). Without this, a one-provider browser app carried them all: a bundle without code
// splitting inlines every provider's lazy import. Node, Deno and Bun load dist/, which holds the
// modules themselves. Each is "providers/<provider>/<module>"; its import key is "#<provider>/<module>".
const BROWSER_VARIANT_MODULES = [
	"providers/google-vertex/application-default-credentials",
	"providers/google-vertex/metadata-server-token",
	"providers/bedrock-converse-stream/node-credential-chain",
	"providers/bedrock-converse-stream/profile-region",
	"providers/openai-codex-responses/websocket-session",
];
const importKey = (module: string): string => `#${module.replace(/^providers\//, "")}`;
const browserVariantImports: Plugin = {
	name: "browser-variant-imports",
	setup(build) {
		build.onResolve({ filter: /\.js$/ }, (args) => {
			if (args.kind === "entry-point" || !args.path.startsWith(".")) return undefined;
			const target = join(args.resolveDir, args.path).replace(/\\/g, "/");
			const module = BROWSER_VARIANT_MODULES.find((name) => target.endsWith(`/src/${name}.js`));
			return module ? { path: importKey(module), external: true } : undefined;
		});
	},
};
const browserVariantEntries = Object.fromEntries(
	BROWSER_VARIANT_MODULES.flatMap((module) => [
		[`internal/node/${importKey(module).slice(1)}`, `src/${module}.ts`],
		[`internal/browser/${importKey(module).slice(1)}`, `src/${module}.browser.ts`],
	]),
);

// The notices list the packages bundled by the two builds that write a metafile (main and on-first-use);
// they run at the same time, so the notices are written when the second one is done.
let buildsWithNotices = 2;
async function writeNoticesOnce(): Promise<void> {
	buildsWithNotices -= 1;
	if (buildsWithNotices === 0) await writeThirdPartyNotices("dist");
}

const onFirstUseBuild: Options = {
	entry: { "internal/create-ajv": "src/utils/create-ajv.cjs", "internal/catalogue-data": "src/models.generated.ts" },
	format: ["cjs"],
	outExtension: () => ({ js: ".cjs" }),
	sourcemap: true,
	esbuildOptions: mapsWithoutSourcesContent,
	target: "node20",
	noExternal: ["ajv", "ajv-formats"],
	metafile: true,
	onSuccess: writeNoticesOnce,
};

const mainBuild: Options = {
	entry: publicEntries,
	format: ["esm"],
	sourcemap: true,
	esbuildOptions: mapsWithoutSourcesContent,
	splitting: true,
	target: "node20",
	// @opentelemetry/api is an optional peer: only the tracing entry imports it, and the application's
	// own copy must be the one used (its global tracer and meter providers live there).
	external: [/^@anthropic-ai\//, /^openai/, /^@google\//, /^@aws-sdk\//, /^@mistralai\//, /^@opentelemetry\//],
	// aws4fetch (Bedrock's SigV4 signing, one small file) is bundled too: nothing is left for an
	// app to install, and bundles of dist/module resolve nothing outside the package.
	noExternal: ["@sinclair/typebox", "ajv", "ajv-formats", "aws4fetch", "oauth4webapi"],
	// Bundled code keeps its licences: dist/THIRD_PARTY_NOTICES.md lists every package the bundle
	// holds, read from the build's own metafile, with its licence text.
	metafile: true,
	esbuildPlugins: [createAjvOnFirstUse, catalogueDataOnFirstUse],
	onSuccess: async () => {
		assertLoadersInDistRoot();
		await writeNoticesOnce();
	},
};

// The modules src/index.ts re-exports values from ("models/catalogue", "utils/validation", …).
function rootExportModules(): string[] {
	const index = readFileSync(new URL("./src/index.ts", import.meta.url), "utf8");
	const statements = index.matchAll(/export\s+(type\s+)?(?:\*|\{[^}]*\})\s+from\s+"\.\/([^"]+)\.js"/g);
	return [...new Set([...statements].filter((match) => !match[1]).map((match) => match[2]))];
}

// The same entries again for bundlers (dist/module, the exports' "default" condition; Node takes the
// "node" one above). Built as above, dist/index.js is one 650 KB module holding AJV, TypeBox, the
// whole catalogue and the rest of the root's exports: a module a bundler keeps whole once a program
// imports anything from it, since the root registers the built-in providers on import (its
// sideEffects entry). Here every module the root re-exports from is an entry of its own, so
// dist/module/index.js holds only that registration and re-exports, and a bundler drops each file a
// program does not use (all but the root are free of side effects): a one-provider browser app goes
// from 104 KB to under 50 KB gzipped (docs/publishing.md). Node keeps the first layout: the same
// code in 100-odd files costs Node about 20 ms more CPU to import (`pnpm bench cold-import`).
const bundlerBuild: Options = {
	entry: {
		...publicEntries,
		...Object.fromEntries(rootExportModules().map((module) => [`internal/${module}`, `src/${module}.ts`])),
		...browserVariantEntries,
	},
	outDir: "dist/module",
	format: ["esm"],
	splitting: true,
	target: "node20",
	external: mainBuild.external,
	noExternal: mainBuild.noExternal,
	esbuildPlugins: [browserVariantImports],
};

// `@keel/ai/models/<provider>`: one generated entry per catalogue provider (src/models/by-provider/),
// so that a one-provider app bundles that provider's rows only. They are a second build: built with
// the entries above, each provider's data module would be shared with index.js and become a chunk of
// its own, and `import("@keel/ai")` would load 41 more files. Built apart, index.js is unchanged and
// each dist/models/<provider>.js holds its provider's data; they share only the row reader.
// Only @keel/ai's own source goes in, so this build has no third-party notices to write.
const providerModelsBuild: Options = {
	entry: Object.fromEntries(
		readdirSync(new URL("./src/models/by-provider/", import.meta.url))
			.filter((name) => name.endsWith(".ts"))
			.map((name) => [`models/${name.slice(0, -3)}`, `src/models/by-provider/${name}`]),
	),
	format: ["esm"],
	sourcemap: true,
	esbuildOptions: mapsWithoutSourcesContent,
	splitting: true,
	target: "node20",
};

// The builds run at the same time, so none cleans dist (one would delete the other's output):
// it is emptied here, once, before both start (not in watch mode, which rebuilds in place).
export default defineConfig((options) => {
	if (!options.watch) rmSync(new URL("./dist/", import.meta.url), { recursive: true, force: true });
	return [mainBuild, onFirstUseBuild, bundlerBuild, providerModelsBuild];
});
