#!/usr/bin/env node
// Makes sure the JavaScript runtimes that tests/runtimes streams in (Bun, Deno and workerd, the
// Cloudflare Workers runtime) are present. They are 350 MB of binaries that only those tests use,
// so they are not devDependencies (every `pnpm install` would fetch them): this script installs
// the versions in runtime-packages.json with npm into node_modules/.cache/keel-runtimes, once, and
// does nothing while they are there. `npm test` runs it first, as it runs ensure-browser.mjs.
// Each binary ships in a platform package (an optional dependency of its wrapper package), so the
// install runs no scripts. It never fails the run: when it cannot install (offline, no binary for
// this platform), it says why and exits 0, and the runtime tests then skip with their own message.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const repositoryRoot = fileURLToPath(new URL("../", import.meta.url));
const { directory, packages } = JSON.parse(readFileSync(new URL("./runtime-packages.json", import.meta.url), "utf8"));
const installDirectory = join(repositoryRoot, directory);

function log(message) {
	console.log(`[ensure-runtimes] ${message}`);
}

function installedVersion(name) {
	const manifest = join(installDirectory, "node_modules", name, "package.json");
	return existsSync(manifest) ? JSON.parse(readFileSync(manifest, "utf8")).version : undefined;
}

const wanted = Object.entries(packages).filter(([name, version]) => installedVersion(name) !== version);
if (wanted.length === 0) {
	log(
		`found ${Object.entries(packages)
			.map(([name, version]) => `${name}@${version}`)
			.join(", ")} in ${directory}; nothing to do`,
	);
} else {
	const specifiers = wanted.map(([name, version]) => `${name}@${version}`);
	mkdirSync(installDirectory, { recursive: true });
	log(`installing ${specifiers.join(" ")} into ${directory}`);
	const result = spawnSync(
		"npm",
		[
			"install",
			"--no-save",
			"--no-package-lock",
			"--ignore-scripts",
			"--no-audit",
			"--no-fund",
			"--prefix",
			installDirectory,
			...specifiers,
		],
		{ stdio: "inherit", shell: process.platform === "win32" },
	);
	if (result.error || result.status !== 0) {
		const why = result.error ? result.error.message : `npm exited with status ${result.status}`;
		log(`could not install (${why}); the Bun, Deno and workerd tests will skip`);
	}
}
