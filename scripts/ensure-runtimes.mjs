#!/usr/bin/env node
// Makes sure the test-only programs that are too big or too particular to be devDependencies are
// present, installing the versions in runtime-packages.json with npm under node_modules/.cache,
// once, and doing nothing while they are there. `npm test` runs it first, as it runs
// ensure-browser.mjs. Two groups, each in its own folder:
// - keel-runtimes: Bun, Deno and workerd (the Cloudflare Workers runtime), 350 MB of binaries that
//   only tests/runtimes streams in.
// - keel-pi: pi's coding agent, whose SessionManager the pi interchange test in packages/agent runs
//   on the files Keel exports, and, when this Node is older than the Node pi requires (22.19),
//   Node 22 itself from the npm package that ships its binary for this platform.
// Every binary ships in a package of its own (an optional dependency of a wrapper package, or the
// Node package itself), so the installs run no scripts; npm warns that pi wants a newer Node than
// the one installing it, which is expected. It never fails the run: when it cannot install
// (offline, no binary for this platform), it says why and exits 0, and the tests then skip with
// their own message.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const repositoryRoot = fileURLToPath(new URL("../", import.meta.url));
const config = JSON.parse(readFileSync(new URL("./runtime-packages.json", import.meta.url), "utf8"));

function log(message) {
	console.log(`[ensure-runtimes] ${message}`);
}

function installedVersion(directory, name) {
	const manifest = join(repositoryRoot, directory, "node_modules", name, "package.json");
	return existsSync(manifest) ? JSON.parse(readFileSync(manifest, "utf8")).version : undefined;
}

/** Whether version a.b.c is at least minimum x.y.z. */
function atLeast(version, minimum) {
	const [a, b] = [version, minimum].map((text) => text.replace(/^v/, "").split(".").map(Number));
	for (let index = 0; index < 3; index++) if (a[index] !== b[index]) return a[index] > b[index];
	return true;
}

/**
 * Installs `packages` ({ name: version }) into `directory` unless all are there. npm removes what a
 * folder has beyond the packages it is asked for (there is no package.json to list them), so when
 * one is missing or outdated the whole group is installed again, not only that one.
 */
function ensureGroup(directory, packages, whenMissing) {
	const entries = Object.entries(packages);
	const specifiers = entries.map(([name, version]) => `${name}@${version}`);
	if (entries.every(([name, version]) => installedVersion(directory, name) === version)) {
		log(`found ${specifiers.join(", ")} in ${directory}; nothing to do`);
		return;
	}
	const installDirectory = join(repositoryRoot, directory);
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
			// pi declares Node >= 22.19; a user's engine-strict setting must not refuse it under Node 20.
			"--engine-strict=false",
			"--prefix",
			installDirectory,
			...specifiers,
		],
		{ stdio: "inherit", shell: process.platform === "win32" },
	);
	if (result.error || result.status !== 0) {
		const why = result.error ? result.error.message : `npm exited with status ${result.status}`;
		log(`could not install (${why}); ${whenMissing}`);
	}
}

ensureGroup(config.directory, config.packages, "the Bun, Deno and workerd tests will skip");

const pi = config.pi;
const platform = `${process.platform}-${process.arch}`;
const nodeBinary = pi.node.binaries[platform];
if (atLeast(process.versions.node, pi.node.minimum)) {
	// This Node runs pi's SessionManager itself.
	ensureGroup(pi.directory, pi.packages, "the tests that run pi's SessionManager will skip");
} else if (nodeBinary) {
	ensureGroup(
		pi.directory,
		{ ...pi.packages, [nodeBinary.package]: nodeBinary.version },
		"the tests that run pi's SessionManager will skip",
	);
} else {
	log(
		`Node ${process.versions.node} is older than pi's ${pi.node.minimum} and runtime-packages.json lists no Node binary package for ${platform}; the tests that run pi's SessionManager will skip`,
	);
}
