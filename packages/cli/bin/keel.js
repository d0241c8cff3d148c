#!/usr/bin/env node
// The `keel` executable. A committed file rather than the built dist/cli.js, so that package
// managers link it at install time: pnpm skips a workspace bin whose file does not exist yet, and
// in this repository the install runs before the first build.
try {
	await import("../dist/cli.js");
} catch (error) {
	if (error?.code === "ERR_MODULE_NOT_FOUND" && String(error.message).includes("dist/cli.js")) {
		console.error("keel is not built yet: run `npm run quickstart` (or `npx -y pnpm@10.34.9 run build`) first.");
		process.exit(1);
	}
	throw error;
}
