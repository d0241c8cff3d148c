import { fileURLToPath } from "node:url";
import { defineProject } from "vitest/config";

const source = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));

export default defineProject({
	resolve: {
		alias: [
			{ find: /^@keel\/ai\/testing$/, replacement: source("ai/src/testing/index.ts") },
			{ find: /^@keel\/ai$/, replacement: source("ai/src/index.ts") },
			{ find: /^@keel\/agent-core\/session\/jsonl$/, replacement: source("agent/src/session/jsonl/index.ts") },
			{ find: /^@keel\/agent-core\/session$/, replacement: source("agent/src/session/index.ts") },
			{ find: /^@keel\/agent-core$/, replacement: source("agent/src/index.ts") },
		],
	},
	test: {
		name: "session-sqlite",
		include: ["test/**/*.test.ts"],
		testTimeout: 60_000,
		hookTimeout: 60_000,
	},
});
