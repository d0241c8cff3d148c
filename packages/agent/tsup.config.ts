import { defineConfig } from "tsup";

export default defineConfig({
	entry: { index: "src/index.ts", session: "src/session/index.ts", "session-jsonl": "src/session/jsonl/index.ts" },
	format: ["esm"],
	dts: { compilerOptions: { paths: {} } },
	sourcemap: true,
	clean: true,
	target: "node20",
	external: [/^@keel\//],
});
