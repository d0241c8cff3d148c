import { defineConfig } from "tsup";

// @keel/* are peers and the SDK a dependency: all stay external, so an app has one copy of each.
// The declarations (tsc -p tsconfig.build.json) resolve @keel/* to their built packages (no paths to their source), as a user's
// compiler would; pnpm builds those packages first.
export default defineConfig({
	entry: { index: "src/index.ts" },
	format: ["esm"],
	sourcemap: true,
	clean: true,
	target: "node20",
	external: [/^@keel\//, /^@modelcontextprotocol\//],
});
