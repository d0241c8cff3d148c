import { fileURLToPath } from "node:url";
import { defineConfig } from "tsup";

export default defineConfig({
	entry: { index: "src/index.ts", session: "src/session/index.ts", "session-jsonl": "src/session/jsonl/index.ts" },
	format: ["esm"],
	// @keel/ai resolves to its built package (external); the session entry's declaration merging
	// names "@keel/agent-core", which must resolve to this package's source while it is built.
	dts: {
		compilerOptions: {
			baseUrl: fileURLToPath(new URL(".", import.meta.url)),
			paths: { "@keel/agent-core": [fileURLToPath(new URL("./src/index.ts", import.meta.url))] },
		},
	},
	sourcemap: true,
	clean: true,
	target: "node20",
	external: [/^@keel\//],
});
