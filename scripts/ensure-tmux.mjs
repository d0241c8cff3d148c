#!/usr/bin/env node
// Makes sure tmux exists for the CLI's real-terminal tests (packages/cli/test/terminal-*.test.ts),
// which run `keel` in a tmux pane and drive it with send-keys / capture-pane. It installs the
// Debian package `tmux` when it is missing and we run as root. It never fails the run: when it
// cannot install, it says why and exits 0, and those tests then skip with their own message.
import { spawnSync } from "node:child_process";

function log(message) {
	console.log(`[ensure-tmux] ${message}`);
}

function tmuxVersion() {
	const result = spawnSync("tmux", ["-V"], { encoding: "utf8" });
	return result.status === 0 ? result.stdout.trim() : undefined;
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

function ensureTmux() {
	const version = tmuxVersion();
	if (version) {
		log(`found ${version}; nothing to do`);
		return;
	}
	if (process.platform !== "linux") {
		log(`tmux is missing and this is ${process.platform}, not Linux: not installing; the terminal tests will skip`);
		return;
	}
	if (typeof process.getuid !== "function" || process.getuid() !== 0) {
		log('tmux is missing and we are not root: run "apt-get install -y tmux" as root; the terminal tests will skip');
		return;
	}
	log('tmux is missing: installing the Debian package "tmux" with apt-get');
	const updateFailure = run("apt-get", ["update"]);
	if (updateFailure)
		log(`apt-get update failed (${updateFailure}); trying the install with the existing package lists`);
	const installFailure = run("apt-get", ["install", "-y", "tmux"]);
	if (installFailure) {
		log(`could not install tmux: ${installFailure}; the terminal tests will skip`);
		return;
	}
	log(
		tmuxVersion()
			? `installed ${tmuxVersion()}`
			: "apt-get finished but tmux still does not run; the terminal tests will skip",
	);
}

try {
	ensureTmux();
} catch (error) {
	log(`unexpected failure, ignored: ${error instanceof Error ? error.message : String(error)}`);
}
