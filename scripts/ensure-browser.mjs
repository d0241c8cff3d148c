#!/usr/bin/env node
// Makes sure a headless Chromium exists for the browser test of the proxy example
// (packages/proxy/test/browser-proxy.test.ts). It installs the Debian package `chromium` when
// /usr/bin/chromium is missing and we run as root. It never fails the run: when it cannot install,
// it says why and exits 0, and the browser test then skips with its own message.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const CHROMIUM_PATH = process.env.KEEL_CHROMIUM_PATH ?? "/usr/bin/chromium";

function log(message) {
	console.log(`[ensure-browser] ${message}`);
}

function run(command, args) {
	log(`running: ${command} ${args.join(" ")}`);
	const result = spawnSync(command, args, {
		stdio: "inherit",
		env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
	});
	if (result.error) return `${command} could not start: ${result.error.message}`;
	if (result.status !== 0) return `${command} exited with status ${result.status ?? `signal ${result.signal}`}`;
	return undefined;
}

function ensureBrowser() {
	if (existsSync(CHROMIUM_PATH)) {
		log(`found ${CHROMIUM_PATH}; nothing to do`);
		return;
	}
	if (process.platform !== "linux") {
		log(
			`${CHROMIUM_PATH} is missing and this is ${process.platform}, not Linux: not installing; the browser test will skip`,
		);
		return;
	}
	if (typeof process.getuid !== "function" || process.getuid() !== 0) {
		log(
			`${CHROMIUM_PATH} is missing and we are not root: run "apt-get install -y chromium" as root; the browser test will skip`,
		);
		return;
	}
	if (!existsSync("/usr/bin/apt-get")) {
		log(`${CHROMIUM_PATH} is missing and apt-get is not available: the browser test will skip`);
		return;
	}
	log(`${CHROMIUM_PATH} is missing: installing the Debian package "chromium" with apt-get`);
	const updateFailure = run("apt-get", ["update"]);
	if (updateFailure)
		log(`apt-get update failed (${updateFailure}); trying the install with the existing package lists`);
	const installFailure = run("apt-get", ["install", "-y", "chromium"]);
	if (installFailure) {
		log(`could not install chromium: ${installFailure}; the browser test will skip`);
		return;
	}
	log(
		existsSync(CHROMIUM_PATH)
			? `installed ${CHROMIUM_PATH}`
			: `apt-get finished but ${CHROMIUM_PATH} is still missing; the browser test will skip`,
	);
}

try {
	ensureBrowser();
} catch (error) {
	log(`unexpected failure, ignored: ${error instanceof Error ? error.message : String(error)}`);
}
