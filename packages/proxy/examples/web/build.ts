// Bundles the example page for the browser with tsup's JS API: app.ts and everything it imports
// (@keel/proxy, @keel/agent-core and @keel/ai from source) into one ES module, plus index.html, in `outDir`.
import { copyFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { build } from "tsup";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export async function bundleExample(outDir: string): Promise<void> {
	await build({
		// Do not pick up the package's tsup.config.ts (a Node library build).
		config: false,
		entry: { app: here("./app.ts") },
		outDir,
		format: ["esm"],
		platform: "browser",
		target: "es2022",
		// Everything in one bundle: the page loads app.js and nothing else from node_modules.
		noExternal: [/.*/],
		splitting: false,
		dts: false,
		sourcemap: false,
		clean: false,
		silent: true,
		esbuildOptions(options) {
			options.alias = {
				"@keel/ai": here("../../../ai/src/index.ts"),
				"@keel/ai/provider-kit": here("../../../ai/src/provider-kit/index.ts"),
				"@keel/agent-core": here("../../../agent/src/index.ts"),
			};
			// @keel/ai lazy-loads provider SDKs with import(); inline them so the page needs one file.
			options.supported = { ...options.supported, "dynamic-import": true };
		},
	});
	await copyFile(here("./index.html"), `${outDir}/index.html`);
}
