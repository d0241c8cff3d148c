import { fileURLToPath } from "node:url";
import { defineProject } from "vitest/config";

const source = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));

export default defineProject({
	resolve: {
		alias: [
			{ find: /^@keel\/ai\/testing$/, replacement: source("ai/src/testing/index.ts") },
			{ find: /^@keel\/ai$/, replacement: source("ai/src/index.ts") },
			{ find: /^@keel\/agent-core$/, replacement: source("agent/src/index.ts") },
			{ find: /^@keel\/ai-sdk$/, replacement: source("ai-sdk/src/index.ts") },
		],
	},
	test: {
		name: "ai-sdk",
		include: ["test/**/*.test.ts"],
		testTimeout: 30_000,
	},
});
