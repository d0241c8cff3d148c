import { fileURLToPath } from "node:url";
import { defineProject } from "vitest/config";

const source = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));

// In-process tests import the packages from source; the tests that spawn `keel` run the built
// dist/cli.js (with the built packages), as a user would.
export default defineProject({
	resolve: {
		alias: [
			{ find: /^@keel\/ai\/testing$/, replacement: source("ai/src/testing/index.ts") },
			{ find: /^@keel\/ai\/credentials\/node$/, replacement: source("ai/src/credentials/node/index.ts") },
			{ find: /^@keel\/ai\/credentials$/, replacement: source("ai/src/credentials/index.ts") },
			{ find: /^@keel\/ai$/, replacement: source("ai/src/index.ts") },
			{ find: /^@keel\/agent-core\/session\/jsonl$/, replacement: source("agent/src/session/jsonl/index.ts") },
			{ find: /^@keel\/agent-core\/session$/, replacement: source("agent/src/session/index.ts") },
			{ find: /^@keel\/agent-core$/, replacement: source("agent/src/index.ts") },
		],
	},
	test: {
		name: "cli",
		include: ["test/**/*.test.ts"],
		testTimeout: 30_000,
	},
});
