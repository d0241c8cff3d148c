import { defineConfig } from "tsup";

// Every entry is its own module so that provider SDKs stay behind dynamic imports.
export default defineConfig({
	entry: {
		index: "src/index.ts",
		"testing/index": "src/testing/index.ts",
	},
	format: ["esm"],
	dts: true,
	sourcemap: true,
	clean: true,
	splitting: true,
	target: "node20",
	external: [/^@anthropic-ai\//, /^openai/, /^@google\//, /^@aws-sdk\//, /^@mistralai\//],
});
