// A browser app that uses one provider bundles that provider's models and no other's when it takes
// them from `@keel/ai/models/<provider>`. `getModel` from "@keel/ai" takes the provider as a
// run-time argument, so it bundles all 41 providers' data (184 KB of text); the per-provider entry
// keeps such an app at the size it had before the catalogue grew to 2,000 models.
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { type BundleTarget, bundleFor, entryPath, keelFromSource } from "./bundle.js";

/** The providers whose generated catalogue data a bundle holds (each starts `{"provider":"<id>"`). */
function providersWithData(code: string): string[] {
	return [...code.matchAll(/\{"provider":"([a-z0-9-]+)"/g)].map((match) => match[1]).sort();
}

async function minifiedBundle(entry: string, fromSource = false): Promise<{ code: string; gzippedBytes: number }> {
	const target: BundleTarget = "browser";
	const { code } = await bundleFor(
		target,
		{ file: entryPath(entry) },
		{ minify: true, plugins: fromSource ? [keelFromSource] : [] },
	);
	return { code, gzippedBytes: gzipSync(code).length };
}

describe("a one-provider browser app", () => {
	it("bundles only its provider's models when it imports them from @keel/ai/models/<provider>", async () => {
		const [perProvider, rootCatalogue] = await Promise.all([
			minifiedBundle("one-provider-app.ts"),
			minifiedBundle("one-provider-app-root-catalogue.ts"),
		]);
		expect(providersWithData(perProvider.code)).toEqual(["anthropic"]);
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

	it("is no bigger than the same app was before the catalogue grew (52 KB gzipped, from source)", async () => {
		// docs/models.md: with the 426-model catalogue, a one-provider app that called getModel was
		// 52.0 KB gzipped (esbuild, minified, from source); with 2,027 models through the root entry, 75 KB.
		const { code, gzippedBytes } = await minifiedBundle("one-provider-app.ts", true);
		expect(providersWithData(code)).toEqual(["anthropic"]);
		expect(gzippedBytes).toBeLessThanOrEqual(52 * 1024);
	});
});
