import { fileURLToPath } from "node:url";
import { defineProject } from "vitest/config";

export default defineProject({
	// Tests that use the package as an outside module would (a provider written against the
	// provider kit) import it by name; its source stands in for the build.
	resolve: {
		alias: [
			{ find: /^@keel\/ai$/, replacement: fileURLToPath(new URL("./src/index.ts", import.meta.url)) },
			{
				find: /^@keel\/ai\/provider-kit$/,
				replacement: fileURLToPath(new URL("./src/provider-kit/index.ts", import.meta.url)),
			},
			{ find: /^@keel\/ai\/testing$/, replacement: fileURLToPath(new URL("./src/testing/index.ts", import.meta.url)) },
		],
	},
	test: {
		name: "ai",
		include: ["test/**/*.test.ts"],
		typecheck: { enabled: true, include: ["test/**/*.test-d.ts"], tsconfig: "./tsconfig.json" },
		testTimeout: 20_000,
	},
});
