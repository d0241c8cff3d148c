import { fileURLToPath } from "node:url";
import { defineProject } from "vitest/config";

const source = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));

export default defineProject({
	resolve: {
		alias: [
			{ find: /^@keel\/ai\/testing$/, replacement: source("ai/src/testing/index.ts") },
			{ find: /^@keel\/ai\/provider-kit$/, replacement: source("ai/src/provider-kit/index.ts") },
			{ find: /^@keel\/ai$/, replacement: source("ai/src/index.ts") },
			// The tests that run an Agent through the proxy (a development dependency only).
			{ find: /^@keel\/agent-core$/, replacement: source("agent/src/index.ts") },
		],
	},
	test: {
		name: "proxy",
		include: ["test/**/*.test.ts"],
		testTimeout: 20_000,
	},
});
