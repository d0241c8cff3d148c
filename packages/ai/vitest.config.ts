import { defineProject } from "vitest/config";

export default defineProject({
	test: {
		name: "ai",
		include: ["test/**/*.test.ts"],
		typecheck: { enabled: true, include: ["test/**/*.test-d.ts"], tsconfig: "./tsconfig.json" },
		testTimeout: 20_000,
	},
});
