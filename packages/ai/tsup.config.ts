import { readdirSync, rmSync } from "node:fs";
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
const mainBuild: Options = {
	entry: {
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
	},
	format: ["esm"],
	dts: true,
	sourcemap: true,
	splitting: true,
	target: "node20",
	// @opentelemetry/api is an optional peer: only the tracing entry imports it, and the application's
	// own copy must be the one used (its global tracer and meter providers live there).
	external: [/^@anthropic-ai\//, /^openai/, /^@google\//, /^@aws-sdk\//, /^@mistralai\//, /^@opentelemetry\//],
	noExternal: ["@sinclair/typebox", "ajv", "ajv-formats"],
	// Bundled code keeps its licences: dist/THIRD_PARTY_NOTICES.md lists every package the bundle
	// holds, read from the build's own metafile, with its licence text.
	metafile: true,
	onSuccess: () => writeThirdPartyNotices("dist"),
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
	dts: true,
	sourcemap: true,
	splitting: true,
	target: "node20",
};

// The two builds run at the same time, so neither cleans dist (one would delete the other's output):
// it is emptied here, once, before both start (not in watch mode, which rebuilds in place).
export default defineConfig((options) => {
	if (!options.watch) rmSync(new URL("./dist/", import.meta.url), { recursive: true, force: true });
	return [mainBuild, providerModelsBuild];
});
