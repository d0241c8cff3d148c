// Where scripts/ensure-runtimes.mjs installs Bun, Deno and workerd (they are not devDependencies:
// only these tests use them), and how a test says so when they are missing.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { REPOSITORY_ROOT } from "./bundle.js";

const { directory } = JSON.parse(readFileSync(join(REPOSITORY_ROOT, "scripts", "runtime-packages.json"), "utf8")) as {
	directory: string;
};

/** A require() that resolves packages from the runtime install folder. */
export const requireRuntimePackage = createRequire(join(REPOSITORY_ROOT, directory, "package.json"));

/** Appended to every "missing" reason. */
export const INSTALL_HINT = "run `node scripts/ensure-runtimes.mjs` (npm test does) to install it";
