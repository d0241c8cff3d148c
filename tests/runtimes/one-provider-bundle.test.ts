// A browser app that uses one provider, bundled by esbuild (its defaults: one output file, minified)
// from @keel/ai as published: the tarball pnpm packs, installed into an empty project. The root
// entry of the package is split into modules that a bundler drops when the app does not use them
// (the catalogue, AJV, TypeBox, structured output, fallbacks …); see docs/publishing.md.
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundleFor } from "./bundle.js";
import { createPackedAiProject, type PackedProject } from "./packed-package.js";

let project: PackedProject;

beforeAll(async () => {
	project = await createPackedAiProject();
});
afterAll(async () => {
	await project?.remove();
});

/** The providers whose generated catalogue data a bundle holds (each starts `{"provider":"<id>"`). */
function providersWithData(code: string): string[] {
	return [...code.matchAll(/\{"provider":"([a-z0-9-]+)"/g)].map((match) => match[1]).sort();
}

/** The modules that package.json "imports" gives browsers and Workers a variant of. */
const NODE_ONLY_MODULES = [
	"bedrock-converse-stream/node-credential-chain",
	"bedrock-converse-stream/profile-region",
	"google-vertex/application-default-credentials",
	"google-vertex/metadata-server-token",
	"openai-codex-responses/websocket-session",
];

/** Which of those a bundle holds in the given variant (dist/module/internal/<variant>/…). */
function variantModules(inputs: string[], variant: "browser" | "node"): string[] {
	const marker = `/dist/module/internal/${variant}/`;
	return inputs
		.filter((path) => path.includes(marker))
		.map((path) => path.slice(path.indexOf(marker) + marker.length).replace(/\.js$/, ""))
		.sort();
}

async function minifiedBundle(entry: string): Promise<{ code: string; gzippedBytes: number; inputs: string[] }> {
	const { code, metafile } = await bundleFor("browser", { file: await project.entry(entry) }, { minify: true });
	return { code, gzippedBytes: gzipSync(code).length, inputs: Object.keys(metafile.inputs) };
}

describe("a one-provider browser app bundled from the packed @keel/ai", () => {
	it("is at most 30 KB gzipped when it streams through its provider's own entry (the goal: 50 KB)", async () => {
		// `streamAnthropic` from @keel/ai/anthropic and the models from @keel/ai/models/anthropic: that
		// provider's code and the shared pieces only.
		const { code, gzippedBytes } = await minifiedBundle("one-provider-entry-app.ts");
		expect(providersWithData(code)).toEqual(["anthropic"]);
		expect(code).not.toContain("registerBuiltInApiProviders");
		// 22.8 KB before file and audio blocks, sampling parameters and Standard Schema tools; 25.7 KB with them.
		expect(gzippedBytes).toBeLessThanOrEqual(30 * 1024);
	});

	it("holds the nine built-in providers, none of their Node-only modules and nothing else of the root with stream from the root (at most 58 KB)", async () => {
		// docs/models.md's example. `stream` can reach every built-in provider (each is loaded on the
		// first call to its API, and a bundle without code splitting holds them all); nothing else of
		// the root comes along: no AJV, no other provider's catalogue rows. 104 KB gzipped when the
		// root was one module, 53.9 KB with every provider's Node-only modules (Vertex's credential
		// files and metadata server, the AWS credential chain, the Codex WebSocket transport), 51.3 KB
		// once the package's "browser" condition swapped each for a small variant, 55.1 KB with file and
		// audio blocks, sampling parameters and Standard Schema tools in every provider, 57.3 KB with
		// office documents, files in tool results and the providers' file limits. Above the 50 KB
		// goal: an app that wants the smallest bundle streams through its provider's entry (above).
		const { code, gzippedBytes, inputs } = await minifiedBundle("one-provider-app.ts");
		expect(providersWithData(code)).toEqual(["anthropic"]);
		expect(inputs.filter((path) => /(^|\/)dist\/index\.js$/.test(path))).toEqual([]);
		expect(code).not.toContain("ajv");
		expect(variantModules(inputs, "node")).toEqual([]);
		expect(variantModules(inputs, "browser")).toEqual(NODE_ONLY_MODULES);
		expect(gzippedBytes).toBeLessThanOrEqual(58 * 1024);
	});

	it("keeps the Node-only modules in a bundle made without the browser condition", async () => {
		// A Node program bundled for a neutral target resolves the package's "imports" with "default".
		const { metafile } = await bundleFor("neutral", { file: await project.entry("one-provider-app.ts") });
		const inputs = Object.keys(metafile.inputs);
		expect(variantModules(inputs, "browser")).toEqual([]);
		expect(variantModules(inputs, "node")).toEqual(NODE_ONLY_MODULES);
	});

	it("bundles only its provider's models when it imports them from @keel/ai/models/<provider>", async () => {
		const [perProvider, rootCatalogue] = await Promise.all([
			minifiedBundle("one-provider-app.ts"),
			minifiedBundle("one-provider-app-root-catalogue.ts"),
		]);
		// The same app with getModel from the root entry carries every provider's data.
		expect(providersWithData(rootCatalogue.code).length).toBeGreaterThanOrEqual(40);
		expect(perProvider.gzippedBytes).toBeLessThan(rootCatalogue.gzippedBytes);
	});

	it("costs no more than the provider's own rows over an app that uses no catalogue at all", async () => {
		const [perProvider, withoutCatalogue] = await Promise.all([
			minifiedBundle("one-provider-app.ts"),
			minifiedBundle("openai-compatible-program.ts"),
		]);
		// Anthropic's 32 rows and the row reader are about 1.5 KB gzipped.
		expect(perProvider.gzippedBytes - withoutCatalogue.gzippedBytes).toBeLessThan(3 * 1024);
	});
});
