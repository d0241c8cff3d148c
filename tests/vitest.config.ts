import { defineProject } from "vitest/config";

// Tests of the repository as a whole rather than of one package: the packed packages installed with
// npm, the documentation's code, the packages in other JavaScript runtimes. They use the built
// packages (`pnpm build`), as a user would.
export default defineProject({
	test: {
		name: "repository",
		include: ["**/*.test.ts"],
		testTimeout: 120_000,
		hookTimeout: 300_000,
	},
});
