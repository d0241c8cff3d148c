import { defineConfig } from "tsup";

// @keel/agent-core and @keel/ai are peer dependencies: the application's copies are used.
export default defineConfig({
	entry: { index: "src/index.ts" },
	format: ["esm"],
	sourcemap: true,
	clean: true,
	target: "node20",
	external: [/^@keel\//],
});
