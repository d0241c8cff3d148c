import { readFileSync } from "node:fs";
import { defineConfig } from "tsup";

const { version } = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as { version: string };

// One module, loaded by the committed bin/keel.js. @keel/ai and @keel/agent-core stay external so
// the CLI uses the installed packages (and a program that imports them shares the same provider
// registry).
export default defineConfig({
	entry: { cli: "src/cli.ts" },
	format: ["esm"],
	sourcemap: true,
	clean: true,
	target: "node20",
	external: [/^@keel\//],
	define: { __KEEL_CLI_VERSION__: JSON.stringify(version) },
});
