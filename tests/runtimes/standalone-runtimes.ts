// Deno and Bun from their npm packages, which scripts/ensure-runtimes.mjs installs: each ships its
// binary in a platform package (an optional dependency). Their own postinstall scripts, which the
// install does not run, only copy that binary; we look it up in the platform package instead.
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { INSTALL_HINT, requireRuntimePackage } from "./runtime-packages.js";

export interface StandaloneRuntime {
	name: "deno" | "bun";
	/** The binary, or why there is none on this machine. */
	binary: { path: string } | { missing: string };
}

/** The platform package and the binary inside it, as the wrapper packages name them. */
function platformBinary(name: "deno" | "bun"): { packageName: string; file: string } | undefined {
	const { platform, arch } = process;
	if (arch !== "x64" && arch !== "arm64") return undefined;
	const windows = platform === "win32";
	if (name === "deno") {
		// @deno/linux-x64-glibc, @deno/darwin-arm64, @deno/win32-x64, …
		return {
			packageName: `@deno/${platform}-${arch}${platform === "linux" ? "-glibc" : ""}`,
			file: windows ? "deno.exe" : "deno",
		};
	}
	// @oven/bun-linux-x64, @oven/bun-darwin-aarch64, @oven/bun-windows-x64, …
	const bunArch = arch === "arm64" ? "aarch64" : "x64";
	return {
		packageName: `@oven/bun-${windows ? "windows" : platform}-${bunArch}`,
		file: windows ? "bin/bun.exe" : "bin/bun",
	};
}

export function findStandaloneRuntime(name: "deno" | "bun"): StandaloneRuntime {
	const target = platformBinary(name);
	if (!target)
		return { name, binary: { missing: `${name} publishes no binary for ${process.platform}-${process.arch}` } };
	try {
		const wrapper = requireRuntimePackage.resolve(`${name}/package.json`);
		const manifest = createRequire(wrapper).resolve(`${target.packageName}/package.json`);
		const path = join(dirname(manifest), target.file);
		if (existsSync(path)) return { name, binary: { path } };
		return { name, binary: { missing: `${target.packageName} has no ${target.file}` } };
	} catch {
		return {
			name,
			binary: {
				missing: `${target.packageName} is not installed (npm installs it with the "${name}" package on ${process.platform}-${process.arch} only): ${INSTALL_HINT}`,
			},
		};
	}
}
