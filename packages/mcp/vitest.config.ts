import { fileURLToPath } from "node:url";
import { defineProject } from "vitest/config";

const source = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));

export default defineProject({
	resolve: {
		alias: [
			{ find: /^@keel\/ai\/testing$/, replacement: source("ai/src/testing/index.ts") },
			{ find: /^@keel\/ai$/, replacement: source("ai/src/index.ts") },
			{ find: /^@keel\/agent-core$/, replacement: source("agent/src/index.ts") },
		],
	},
	test: {
		name: "mcp",
		include: ["test/**/*.test.ts"],
		// Tests start real server processes, which is slow on a loaded machine.
		testTimeout: 60_000,
		hookTimeout: 60_000,
	},
});
