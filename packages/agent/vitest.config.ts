import { fileURLToPath } from "node:url";
import { defineProject } from "vitest/config";

const aiSource = (path: string) => fileURLToPath(new URL(`../ai/src/${path}`, import.meta.url));

export default defineProject({
	resolve: {
		alias: [
			{ find: /^@keel\/ai\/testing$/, replacement: aiSource("testing/index.ts") },
			{ find: /^@keel\/ai\/tracing$/, replacement: aiSource("tracing/index.ts") },
			{ find: /^@keel\/ai$/, replacement: aiSource("index.ts") },
		],
	},
	test: {
		name: "agent",
		include: ["test/**/*.test.ts"],
		testTimeout: 20_000,
	},
});
