// `pnpm bench`: runs every scripts/bench/*.bench.ts in name order (or those named on the command
// line, e.g. `pnpm bench event-stream`). Each file default-exports an async function that prints
// its own rows. Figures are machine-dependent: compare rows within one run.
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const files = readdirSync(here)
	.filter((name) => name.endsWith(".bench.ts"))
	.filter((name) => only.length === 0 || only.some((filter) => name.includes(filter)))
	.sort();

for (const file of files) {
	console.log(`\n## ${file.replace(/\.bench\.ts$/, "")}`);
	const module = (await import(pathToFileURL(join(here, file)).href)) as { default: () => Promise<void> };
	await module.default();
}
