import { defineConfig } from "tsup";

// The .d.ts files come from `tsc -p tsconfig.build.json` (dist/types, one per source module), run
// by the package's build script after this build.
export default defineConfig({
	entry: { index: "src/index.ts" },
	format: ["esm"],
	sourcemap: true,
	// Positions map to the original files and lines; the sources' text is left out of the package.
	esbuildOptions(options) {
		options.sourcesContent = false;
	},
	clean: true,
	target: "node20",
	external: [/^@keel\//, /^@ai-sdk\//],
});
