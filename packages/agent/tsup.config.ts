import { defineConfig } from "tsup";

// The .d.ts files come from `tsc -p tsconfig.build.json` (dist/types, one per source module), run
// by the package's build script after this build: far cheaper than tsup's declaration bundling.
export default defineConfig({
	entry: { index: "src/index.ts", session: "src/session/index.ts", "session-jsonl": "src/session/jsonl/index.ts" },
	format: ["esm"],
	sourcemap: true,
	// Positions map to the original files and lines; the sources' text is left out of the package.
	esbuildOptions(options) {
		options.sourcesContent = false;
	},
	clean: true,
	target: "node20",
	external: [/^@keel\//],
});
