import { defineConfig } from "tsup";

// Every entry is its own module so that provider SDKs stay behind dynamic imports.
export default defineConfig({
	entry: {
		index: "src/index.ts",
		"testing/index": "src/testing/index.ts",
		"providers/anthropic": "src/providers/anthropic/index.ts",
		"providers/openai-completions": "src/providers/openai-completions/index.ts",
		"providers/openai-responses": "src/providers/openai-responses/index.ts",
		"providers/azure-openai-responses": "src/providers/azure-openai-responses/index.ts",
	},
	format: ["esm"],
	dts: true,
	sourcemap: true,
	clean: true,
	splitting: true,
	target: "node20",
	external: [/^@anthropic-ai\//, /^openai/, /^@google\//, /^@aws-sdk\//, /^@mistralai\//],
});
