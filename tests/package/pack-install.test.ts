// What `npm install @keel/ai @keel/agent-core @keel/cli @keel/proxy @keel/session-postgres` gives a
// user, tested as such: the packages packed by pnpm (which publishes them), installed from the
// tarballs with plain npm into an empty project, then run with plain node, type-checked by a
// consumer, required from CommonJS, and the `keel` command run with npx. @keel/session-sqlite is
// packed and its tarball checked, but not installed: its better-sqlite3 compiles from source here.
// @keel/mcp is installed by npm in a second project from a registry on 127.0.0.1 (local-registry.ts):
// the MCP SDK's dependencies need two versions of one package, which `overrides` cannot give.
//
// No network: the third-party dependencies are tarballs made from the exact versions pnpm
// installed, given to npm through `overrides`, and npm runs with --offline and an empty cache.
// The @keel/ai that @keel/agent-core needs is not overridden: npm resolves the published peer range.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { WireTestServer } from "@keel/ai/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
	assertBuilt,
	createDependencyTarballs,
	createInstalledTarballs,
	createNpmProject,
	exportTargets,
	type NpmProject,
	type PackedPackage,
	type PublishedManifest,
	packWithPnpm,
	repackWithVersion,
	targetIsAmong,
} from "./consumer-project.js";
import { type LocalRegistry, startLocalRegistry } from "./local-registry.js";
import { environmentWithoutNpmSettings, runCommand, runCommandOrThrow } from "./run-command.js";

const repositoryRoot = fileURLToPath(new URL("../../", import.meta.url));
const aiDirectory = join(repositoryRoot, "packages/ai");
const agentDirectory = join(repositoryRoot, "packages/agent");
const cliDirectory = join(repositoryRoot, "packages/cli");
const proxyDirectory = join(repositoryRoot, "packages/proxy");
const mcpDirectory = join(repositoryRoot, "packages/mcp");
const sessionPostgresDirectory = join(repositoryRoot, "packages/session-postgres");
const sessionSqliteDirectory = join(repositoryRoot, "packages/session-sqlite");
const fixtureDirectory = fileURLToPath(new URL("./consumer/", import.meta.url));
const typescriptCompiler = join(repositoryRoot, "node_modules/typescript/bin/tsc");

let workDirectory: string;
let ai: PackedPackage;
let agentCore: PackedPackage;
let cli: PackedPackage;
let proxy: PackedPackage;
let mcp: PackedPackage;
let sessionPostgres: PackedPackage;
let sessionSqlite: PackedPackage;
/** Every published package, packed. */
let allPacked: PackedPackage[];
let project: NpmProject;
let mcpProject: NpmProject;
let registry: LocalRegistry | undefined;
let dependencyOverrides: Record<string, string>;

beforeAll(async () => {
	assertBuilt(aiDirectory);
	assertBuilt(agentDirectory);
	assertBuilt(cliDirectory);
	assertBuilt(proxyDirectory);
	assertBuilt(mcpDirectory);
	assertBuilt(sessionPostgresDirectory);
	assertBuilt(sessionSqliteDirectory);
	workDirectory = mkdtempSync(join(tmpdir(), "keel-pack-install-"));
	const tarballs = join(workDirectory, "tarballs");
	[ai, agentCore, cli, proxy, mcp, sessionPostgres, sessionSqlite] = await Promise.all([
		packWithPnpm(repositoryRoot, aiDirectory, tarballs),
		packWithPnpm(repositoryRoot, agentDirectory, tarballs),
		packWithPnpm(repositoryRoot, cliDirectory, tarballs),
		packWithPnpm(repositoryRoot, proxyDirectory, tarballs),
		packWithPnpm(repositoryRoot, mcpDirectory, tarballs),
		packWithPnpm(repositoryRoot, sessionPostgresDirectory, tarballs),
		packWithPnpm(repositoryRoot, sessionSqliteDirectory, tarballs),
	]);
	allPacked = [ai, agentCore, cli, proxy, mcp, sessionPostgres, sessionSqlite];
	// The third-party dependencies only: a Keel package must come from its packed tarball.
	const thirdParty = (packed: PackedPackage) =>
		Object.keys(packed.manifest.dependencies ?? {}).filter((name) => !name.startsWith("@keel/"));
	const overrides = createDependencyTarballs(
		[
			{ fromDirectory: aiDirectory, names: thirdParty(ai) },
			{ fromDirectory: agentDirectory, names: thirdParty(agentCore) },
			{ fromDirectory: cliDirectory, names: thirdParty(cli) },
			{ fromDirectory: sessionPostgresDirectory, names: thirdParty(sessionPostgres) },
			// For the type-check: a Node project has Node's types.
			{ fromDirectory: repositoryRoot, names: ["@types/node"] },
		],
		tarballs,
	);
	dependencyOverrides = Object.fromEntries(Object.entries(overrides).filter(([name]) => name !== "@types/node"));
	project = createNpmProject(
		join(workDirectory, "consumer"),
		fixtureDirectory,
		{
			name: "keel-consumer",
			private: true,
			type: "module",
			dependencies: {
				"@keel/ai": `file:${ai.tarball}`,
				"@keel/agent-core": `file:${agentCore.tarball}`,
				"@keel/cli": `file:${cli.tarball}`,
				"@keel/proxy": `file:${proxy.tarball}`,
				"@keel/session-postgres": `file:${sessionPostgres.tarball}`,
			},
			devDependencies: { "@types/node": overrides["@types/node"] },
			overrides,
		},
		join(workDirectory, "npm-cache"),
	);
	await project.npm(["install"]);
	// @keel/mcp from a registry: the MCP SDK's tree needs two versions of content-type (1.x for the
	// SDK, 2.x for express 5 below it), which `overrides` cannot express, so npm resolves it the way
	// a user's install does, against a registry on 127.0.0.1 serving the packed Keel packages and
	// every third-party version pnpm installed.
	registry = await startLocalRegistry([
		...[ai, agentCore, mcp].map((packed) => ({ manifest: packed.manifest, tarball: packed.tarball })),
		...createInstalledTarballs(
			[
				{ fromDirectory: aiDirectory, names: thirdParty(ai) },
				{ fromDirectory: agentDirectory, names: thirdParty(agentCore) },
				{ fromDirectory: mcpDirectory, names: thirdParty(mcp) },
			],
			tarballs,
		),
	]);
	mcpProject = createNpmProject(
		join(workDirectory, "mcp-consumer"),
		fixtureDirectory,
		{
			name: "keel-mcp-consumer",
			private: true,
			type: "module",
			dependencies: { "@keel/mcp": mcp.version, "@keel/agent-core": agentCore.version, "@keel/ai": ai.version },
		},
		join(workDirectory, "npm-cache-mcp"),
		registry.url,
	);
	await mcpProject.npm(["install"]);
});

afterAll(async () => {
	await registry?.close();
	if (workDirectory) rmSync(workDirectory, { recursive: true, force: true });
});

async function installedCopiesOfAi(): Promise<string[]> {
	const output = await project.npm(["ls", "@keel/ai", "--all", "--parseable", "--long"]);
	return output
		.trim()
		.split("\n")
		.map((line) => line.slice(line.lastIndexOf(":") + 1));
}

async function runAgentScript(): Promise<Record<string, unknown>> {
	const output = await runCommandOrThrow("node", ["run-agent.mjs"], { cwd: project.directory, timeoutMs: 60_000 });
	return JSON.parse(output) as Record<string, unknown>;
}

describe("the packed tarballs", () => {
	it("hold only the built code, the README and the LICENSE", () => {
		const rootLicense = readFileSync(join(repositoryRoot, "LICENSE"), "utf8");
		for (const packed of allPacked) {
			const unexpected = packed.files.filter(
				(file) =>
					!file.startsWith("dist/") &&
					!["package.json", "README.md", "LICENSE"].includes(file) &&
					!(packed === cli && file === "bin/keel.js"),
			);
			expect(unexpected, packed.name).toEqual([]);
			expect(packed.files, packed.name).toEqual(expect.arrayContaining(["README.md", "LICENSE"]));
			const missing = exportTargets(packed.manifest).filter((target) => !targetIsAmong(target, packed.files));
			expect(missing, packed.name).toEqual([]);
			expect(readFileSync(join(packed.extracted, "LICENSE"), "utf8"), packed.name).toBe(rootLicense);
		}
	});

	it("@keel/ai carries the licence of every package bundled into its dist", () => {
		expect(ai.files).toContain("dist/THIRD_PARTY_NOTICES.md");
		const notices = readFileSync(join(ai.extracted, "dist/THIRD_PARTY_NOTICES.md"), "utf8");
		for (const bundled of ["@sinclair/typebox", "ajv", "ajv-formats", "fast-uri", "aws4fetch", "oauth4webapi"]) {
			expect(notices).toContain(`## ${bundled}@`);
		}
		expect(notices).toContain("BSD-3-Clause");
		expect(ai.files.some((file) => file.includes("metafile"))).toBe(false);
	});

	it("@keel/session-sqlite (checked as a tarball: better-sqlite3 compiles from source on install) has its entry, declarations and driver", () => {
		expect(sessionSqlite.files).toEqual(expect.arrayContaining(["dist/index.js", "dist/types/index.d.ts"]));
		expect(Object.keys(sessionSqlite.manifest.dependencies ?? {})).toContain("better-sqlite3");
		const entry = readFileSync(join(sessionSqlite.extracted, "dist/index.js"), "utf8");
		expect(entry).toMatch(/from ["']better-sqlite3["']/);
		expect(entry).not.toMatch(/from ["']\.\.\/\.\.\//);
	});

	it("@keel/cli holds its keel bin and the code it loads", () => {
		expect(cli.manifest.bin).toEqual({ keel: "./bin/keel.js" });
		expect(cli.files).toEqual(expect.arrayContaining(["bin/keel.js", "dist/cli.js"]));
		expect(readFileSync(join(cli.extracted, "bin/keel.js"), "utf8")).toMatch(/^#!\/usr\/bin\/env node\n/);
	});

	it("keep no workspace: range, and @keel/agent-core takes @keel/ai as a caret peer", () => {
		for (const packed of allPacked) {
			expect(JSON.stringify(packed.manifest), packed.name).not.toContain("workspace:");
		}
		expect(agentCore.manifest.peerDependencies).toEqual({ "@keel/ai": `^${ai.version}` });
		// ioredis is an optional peer: only @keel/proxy/redis uses it, and the caller passes the client in.
		expect(proxy.manifest.peerDependencies).toEqual({ "@keel/ai": `^${ai.version}`, ioredis: "^5.4.0" });
		expect(proxy.manifest.peerDependenciesMeta).toEqual({ ioredis: { optional: true } });
		expect(proxy.manifest.dependencies).toBeUndefined();
		// @keel/mcp is an optional peer of the CLI: --mcp needs it, a plain `keel "…"` does not.
		expect(cli.manifest.peerDependencies).toEqual({ "@keel/mcp": `^${mcp.version}` });
		expect(cli.manifest.peerDependenciesMeta).toEqual({ "@keel/mcp": { optional: true } });
		for (const packed of [mcp, sessionPostgres, sessionSqlite]) {
			expect(packed.manifest.peerDependencies, packed.name).toEqual({
				"@keel/agent-core": `^${agentCore.version}`,
				"@keel/ai": `^${ai.version}`,
			});
			const keelDependencies = Object.keys(packed.manifest.dependencies ?? {}).filter((name) =>
				name.startsWith("@keel/"),
			);
			expect(keelDependencies, packed.name).toEqual([]);
		}
		expect(agentCore.manifest.dependencies?.["@keel/ai"]).toBeUndefined();
		// The CLI is an application: it brings what `keel` runs on (the proxy for `keel serve`), in the
		// caret range of this release.
		expect(cli.manifest.dependencies).toEqual({
			"@keel/agent-core": `^${agentCore.version}`,
			"@keel/ai": `^${ai.version}`,
			"@keel/proxy": `^${proxy.version}`,
		});
	});

	it("give every subpath export a typesVersions entry, for TypeScript's node10 resolution", () => {
		for (const packed of allPacked) {
			const subpaths = Object.keys(packed.manifest.exports)
				.filter((subpath) => subpath !== "." && subpath !== "./package.json")
				.map((subpath) => subpath.slice(2));
			expect(Object.keys(packed.manifest.typesVersions?.["*"] ?? {}), packed.name).toEqual(subpaths);
			for (const subpath of subpaths) {
				const entry = packed.manifest.exports[`./${subpath}`] as Record<string, string>;
				expect(packed.manifest.typesVersions?.["*"][subpath], `${packed.name}/${subpath}`).toEqual([entry.types]);
			}
		}
	});

	it("ask for Node 20.19 or later, the first Node 20 that loads ES modules with require()", () => {
		for (const packed of allPacked) expect(packed.manifest.engines, packed.name).toEqual({ node: ">=20.19" });
	});

	it("cannot be packed with npm, which would keep workspace: ranges and leave out the LICENSE", async () => {
		const refused = await runCommand("npm", ["pack", "--dry-run", "--ignore-scripts=false"], {
			cwd: aiDirectory,
			env: environmentWithoutNpmSettings(),
			timeoutMs: 60_000,
		});
		expect(refused.exitCode).not.toBe(0);
		expect(refused.stderr).toContain("packed and published with pnpm");
		// Every package runs the same refusal (the one run above stands for them all); pnpm leaves
		// the script out of the published manifest, so the repository's manifests are read.
		const directories = [
			aiDirectory,
			agentDirectory,
			cliDirectory,
			proxyDirectory,
			mcpDirectory,
			sessionPostgresDirectory,
			sessionSqliteDirectory,
		];
		for (const directory of directories) {
			const manifest = JSON.parse(readFileSync(join(directory, "package.json"), "utf8")) as PublishedManifest;
			expect(manifest.scripts?.prepack, manifest.name).toBe("node ../../scripts/refuse-npm-pack.mjs");
		}
	});

	it("carry the metadata a registry page shows", () => {
		for (const packed of allPacked) {
			const { manifest } = packed;
			expect(manifest.license, packed.name).toBe("MIT");
			expect(manifest.repository?.url, packed.name).toMatch(/^git\+https:\/\/github\.com\/.+\.git$/);
			expect(manifest.repository?.directory, packed.name).toMatch(/^packages\//);
			expect(manifest.homepage, packed.name).toMatch(/^https:\/\//);
			expect(manifest.bugs?.url, packed.name).toMatch(/^https:\/\//);
			expect(manifest.keywords?.length, packed.name).toBeGreaterThan(0);
			expect(manifest.publishConfig?.access, packed.name).toBe("public");
		}
	});
});

/** The packages under a node_modules folder (scoped ones as "@scope/name"), sorted. */
function installedPackages(nodeModules: string): string[] {
	const names: string[] = [];
	for (const entry of readdirSync(nodeModules)) {
		if (entry.startsWith(".")) continue;
		if (entry.startsWith("@")) {
			for (const scoped of readdirSync(join(nodeModules, entry))) names.push(`${entry}/${scoped}`);
		} else {
			names.push(entry);
		}
	}
	return names.sort();
}

function isProviderSdk(name: string): boolean {
	return /^(@anthropic-ai\/|openai$|@aws-sdk\/|@smithy\/|@google\/|@mistralai\/)/.test(name);
}

/** Bytes of every file under `directory` (their length, not the blocks they take on this disk). */
function directoryBytes(directory: string): number {
	let total = 0;
	for (const entry of readdirSync(directory, { withFileTypes: true })) {
		const path = join(directory, entry.name);
		if (entry.isDirectory()) total += directoryBytes(path);
		else if (entry.isFile()) total += statSync(path).size;
	}
	return total;
}

describe("installed with plain npm", () => {
	it("takes at most 10 MB and no provider SDK for @keel/ai and @keel/agent-core", async () => {
		// What an app on an OpenAI-compatible server or on Anthropic installs: the two libraries and
		// their dependencies. The provider SDKs are optional peers: no API needs one to run (Bedrock
		// signs with aws4fetch, bundled; only its Node credential chain is an optional peer).
		const lean = createNpmProject(
			join(workDirectory, "lean-consumer"),
			fixtureDirectory,
			{
				name: "keel-lean-consumer",
				private: true,
				type: "module",
				dependencies: { "@keel/ai": `file:${ai.tarball}`, "@keel/agent-core": `file:${agentCore.tarball}` },
				overrides: dependencyOverrides,
			},
			join(workDirectory, "npm-cache"),
		);
		await lean.npm(["install"]);
		const nodeModules = join(lean.directory, "node_modules");
		const packages = installedPackages(nodeModules);
		expect(packages.filter(isProviderSdk)).toEqual([]);
		expect(packages).toEqual(["@keel/agent-core", "@keel/ai", "@sinclair/typebox", "ws"]);
		expect(directoryBytes(nodeModules)).toBeLessThanOrEqual(10 * 1000 * 1000);
	});

	it("has one copy of @keel/ai", async () => {
		expect(await installedCopiesOfAi()).toEqual([`@keel/ai@${ai.version}`]);
	});

	it("streams from the faux provider and runs an Agent with a tool, with plain node", async () => {
		const result = await runAgentScript();
		expect(result).toEqual({
			streamedText: "Streamed from the faux provider.",
			streamedStopReason: "stop",
			toolCalls: [{ a: 20, b: 22 }],
			finalText: "The sum is 42.",
			finalStopReason: "stop",
			// The Agent streamed through the provider the app registered: one registry.
			agentError: null,
			lastEvent: "agent_end",
			fauxCalls: 3,
		});
	});

	it("imports the root and every subpath of every package with plain node", async () => {
		const entriesOf = (packages: PackedPackage[]) =>
			packages.flatMap((packed) =>
				Object.keys(packed.manifest.exports)
					.filter((subpath) => subpath !== "./package.json")
					// A pattern subpath is imported through one of the files it matches.
					.map((subpath) => packed.name + subpath.slice(1).replace("*", "anthropic")),
			);
		const runs = [
			{ cwd: project.directory, entries: entriesOf([ai, agentCore, proxy, sessionPostgres]) },
			{ cwd: mcpProject.directory, entries: entriesOf([mcp]) },
		];
		expect(runs.flatMap((run) => run.entries)).toEqual(
			expect.arrayContaining(["@keel/ai/provider-kit", "@keel/proxy/node", "@keel/session-postgres", "@keel/mcp"]),
		);
		for (const { cwd, entries } of runs) {
			const output = await runCommandOrThrow("node", ["import-every-entry.mjs", JSON.stringify(entries)], {
				cwd,
				timeoutMs: 120_000,
			});
			const exportCounts = JSON.parse(output) as Record<string, number | string>;
			expect(Object.keys(exportCounts)).toEqual(entries);
			// @keel/ai/tracing needs its optional peer @opentelemetry/api, which this app did not install.
			const { "@keel/ai/tracing": tracing, ...others } = exportCounts;
			if (tracing !== undefined) expect(tracing).toMatch(/^ERR_MODULE_NOT_FOUND: .*'@opentelemetry\/api'/);
			const failed = Object.entries(others).filter(([, count]) => typeof count !== "number" || count === 0);
			expect(failed).toEqual([]);
		}
	});

	it("@keel/mcp's root loads no node:child_process until a stdio server is started", async () => {
		const output = await runCommandOrThrow("node", ["mcp-lazy-child-process.mjs"], {
			cwd: mcpProject.directory,
			timeoutMs: 60_000,
		});
		expect(JSON.parse(output)).toEqual({
			beforeImport: false,
			afterImport: false,
			afterStdio: true,
			connectFailed: true,
		});
	});

	it("npm installs @keel/mcp with its peers from a registry, and it calls a stdio MCP server's tool", async () => {
		const installed = JSON.parse(await mcpProject.npm(["ls", "--all", "--json"])) as {
			dependencies: Record<string, { version: string; dependencies?: Record<string, { version: string }> }>;
		};
		expect(installed.dependencies["@keel/mcp"].version).toBe(mcp.version);
		expect(installed.dependencies["@keel/mcp"].dependencies?.["@modelcontextprotocol/sdk"]?.version).toBe(
			mcp.manifest.dependencies?.["@modelcontextprotocol/sdk"],
		);
		const output = await runCommandOrThrow("node", ["mcp-stdio-tool.mjs"], {
			cwd: mcpProject.directory,
			timeoutMs: 120_000,
		});
		const result = JSON.parse(output) as { tools: string[]; parameters: { properties: object }; content: unknown };
		expect(result.tools).toEqual(["add"]);
		expect(Object.keys(result.parameters.properties)).toEqual(["a", "b"]);
		expect(result.content).toEqual([{ type: "text", text: "42" }]);
	});

	it("streams through the installed @keel/proxy: streamProxy to its Node handler, with plain node", async () => {
		const output = await runCommandOrThrow("node", ["run-proxy.mjs"], { cwd: project.directory, timeoutMs: 60_000 });
		expect(JSON.parse(output)).toEqual({
			streamedText: "Through the installed proxy.",
			stopReason: "stop",
			errorMessage: null,
			fetchHandler: "function",
		});
	});

	it("type-checks a strict consumer under moduleResolution node16, node10 and bundler, with no provider SDK installed", async () => {
		// node16 and node10 run with skipLibCheck off: every published .d.ts and its imports must check
		// (node10 reads no exports map: it finds the subpaths through typesVersions). bundler resolves
		// the same files through the same "types" conditions, so it skips the libraries.
		const results = await Promise.all(
			["tsconfig.node16.json", "tsconfig.node10.json", "tsconfig.bundler.json"].map((config) =>
				runCommand("node", [typescriptCompiler, "-p", config], { cwd: project.directory, timeoutMs: 180_000 }),
			),
		);
		expect(results.map((result) => result.stdout + result.stderr)).toEqual(["", "", ""]);
		expect(results.map((result) => result.exitCode)).toEqual([0, 0, 0]);
		expect(installedPackages(join(project.directory, "node_modules")).filter(isProviderSdk)).toEqual([]);
	});

	it("ends a Bedrock call with no credentials and no AWS credential chain installed with one error that says what to install", async () => {
		const output = await runCommandOrThrow("node", ["bedrock-without-credential-chain.mjs"], {
			cwd: project.directory,
			timeoutMs: 60_000,
		});
		const lastEvent = JSON.parse(output) as { type: string; errorMessage: string };
		expect(lastEvent.type).toBe("error");
		expect(lastEvent.errorMessage).toContain("npm install @aws-sdk/credential-providers");
	});

	it("loads from CommonJS with require(), the same module as import (or says it is an ES module)", async () => {
		const output = await runCommandOrThrow("node", ["require-from-commonjs.cjs"], {
			cwd: project.directory,
			timeoutMs: 60_000,
		});
		const result = JSON.parse(output);
		// Node 20.19+ and 22.12+ load ES modules with require(); older versions throw ERR_REQUIRE_ESM,
		// whose message tells the user to use import().
		if (process.features.require_module) {
			expect(result).toEqual({ required: { stream: "function", Agent: "function" }, sameModuleAsImport: true });
		} else {
			expect(result.error.code).toBe("ERR_REQUIRE_ESM");
			expect(result.error.message).toMatch(/ES Module/);
		}
	});

	it("runs `npx keel --help` and `keel models --json` from the installed bin", async () => {
		const options = { cwd: project.directory, env: environmentWithoutNpmSettings(), timeoutMs: 60_000 };
		const help = await runCommandOrThrow("npx", ["--offline", "--no-install", "keel", "--help"], options);
		expect(help).toMatch(/^Usage: keel <command>/);
		const models = JSON.parse(
			await runCommandOrThrow("npx", ["--offline", "--no-install", "keel", "models", "anthropic", "--json"], options),
		) as { provider: string }[];
		expect(models.length).toBeGreaterThan(0);
		expect(models.every((model) => model.provider === "anthropic")).toBe(true);
	});

	it("streams a prompt from the installed keel to an OpenAI-compatible server", async () => {
		const server = await WireTestServer.start();
		try {
			const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
				`data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
			server.enqueue({ body: [chunk({ content: "Installed and working." }), chunk({}, "stop"), "data: [DONE]\n\n"] });
			// stdin from /dev/null: `keel prompt` reads a piped stdin to its end, as `llm` does.
			const command = `node_modules/.bin/keel prompt -m local-model --base-url ${server.url} hi < /dev/null`;
			const result = await runCommand("sh", ["-c", command], {
				cwd: project.directory,
				env: { PATH: process.env.PATH ?? "", HOME: workDirectory },
				timeoutMs: 60_000,
			});
			expect(result.stderr).not.toContain("Error");
			expect(result.stdout).toBe("Installed and working.\n");
			expect(result.exitCode).toBe(0);
		} finally {
			await server.close();
		}
	});

	it("lets the app upgrade @keel/ai within the peer range with one copy, and flags a version outside it", async () => {
		const [major, minor, patch] = ai.version.split(".").map(Number);
		const inRange = `${major}.${minor}.${patch + 1}`;
		// In 0.x a caret range stops at the next minor; from 1.0 at the next major.
		const outOfRange = major === 0 ? `0.${minor + 1}.0` : `${major + 1}.0.0`;
		const tarballs = join(workDirectory, "tarballs");

		await project.npm(["install", `file:${repackWithVersion(ai, inRange, tarballs)}`]);
		expect(await installedCopiesOfAi()).toEqual([`@keel/ai@${inRange}`]);
		expect(await runAgentScript()).toMatchObject({ agentError: null, finalText: "The sum is 42." });

		// npm 11 lets an explicit install override the peer, with a warning naming the range (older
		// npm versions refuse with the same ERESOLVE text); it never installs a second copy.
		const outside = await project.npmResult([
			"install",
			"--dry-run",
			`file:${repackWithVersion(ai, outOfRange, tarballs)}`,
		]);
		expect(outside.stderr).toContain("ERESOLVE");
		expect(outside.stderr).toContain(`peer @keel/ai@"^${ai.version}" from @keel/agent-core@${agentCore.version}`);
	});
});
