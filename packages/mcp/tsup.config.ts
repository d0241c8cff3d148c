import { defineConfig } from "tsup";

// @keel/* are peers and the SDK a dependency: all stay external, so an app has one copy of each.
export default defineConfig({
	entry: { index: "src/index.ts" },
	format: ["esm"],
	dts: true,
	sourcemap: true,
	clean: true,
	target: "node20",
	external: [/^@keel\//, /^@modelcontextprotocol\//],
});
