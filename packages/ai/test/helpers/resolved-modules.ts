// Runs a script in a fresh Node process (tsx for .ts sources) with a module-resolution hook that
// logs every module it resolves, so a test can assert what an import or a call loads (no provider
// SDK on import, no OpenTelemetry while tracing is off, …).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

export interface ModuleRecorder {
	/** Runs `script` as an ES module with `cwd` as the working directory; returns the resolved URLs in order. */
	resolvedModules(name: string, script: string): string[];
	/** Deletes the recorder's temporary files. */
	remove(): void;
}

export function createModuleRecorder(cwd: string): ModuleRecorder {
	const workDirectory = mkdtempSync(join(tmpdir(), "keel-resolved-modules-"));
	const hookPath = join(workDirectory, "record-resolutions.mjs");
	writeFileSync(
		hookPath,
		`import { appendFileSync } from "node:fs";
export async function resolve(specifier, context, nextResolve) {
	const result = await nextResolve(specifier, context);
	appendFileSync(process.env.KEEL_RESOLUTION_LOG, result.url + "\\n");
	return result;
}
`,
	);
	const registerPath = join(workDirectory, "register.mjs");
	writeFileSync(
		registerPath,
		`import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(hookPath).href)});\n`,
	);
	return {
		resolvedModules(name, script) {
			const log = join(workDirectory, `${name}.log`);
			writeFileSync(log, "");
			const child = spawnSync(
				process.execPath,
				["--import", "tsx", "--import", pathToFileURL(registerPath).href, "--input-type=module", "-e", script],
				{ cwd, env: { ...process.env, KEEL_RESOLUTION_LOG: log }, encoding: "utf8", timeout: 60_000 },
			);
			if (child.status !== 0) throw new Error(`node exited with ${child.status}: ${child.stderr}`);
			return readFileSync(log, "utf8").split("\n").filter(Boolean);
		},
		remove() {
			rmSync(workDirectory, { recursive: true, force: true });
		},
	};
}
