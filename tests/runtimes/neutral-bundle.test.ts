// Bundling for a neutral target: no runtime's export conditions, no externals, no Node built-ins
// to fall back on. A program that only talks to OpenAI-compatible servers must bundle, and so must
// every entry of @keel/ai but the Node-only test kit and the Node-only half of credentials (the
// file store and the loopback login server).
import { describe, expect, it } from "vitest";
import { bundleFor, describeBuildFailure, entryPath, inputsFromPackage, nodeBuiltinImports } from "./bundle.js";
import { packageSpecifiers } from "./package-entries.js";

/** The Node built-ins a neutral bundle of the code needs, or esbuild's errors when it cannot be built. */
async function nodeNeeds(entry: { file: string } | { contents: string }): Promise<string[]> {
	try {
		const { metafile } = await bundleFor("neutral", entry);
		return nodeBuiltinImports(metafile);
	} catch (error) {
		return describeBuildFailure(error).split("\n");
	}
}

describe("a neutral bundle", () => {
	it("of a program using only OpenAI-compatible models needs no Node built-in and leaves the Anthropic SDK out", async () => {
		let failure: string | undefined;
		try {
			const { metafile } = await bundleFor("neutral", { file: entryPath("openai-compatible-program.ts") });
			expect(nodeBuiltinImports(metafile)).toEqual([]);
			expect(inputsFromPackage(metafile, "@anthropic-ai/sdk")).toEqual([]);
		} catch (error) {
			failure = describeBuildFailure(error);
		}
		expect(failure, "esbuild could not bundle the program for a neutral target").toBeUndefined();
	});

	it("can be made of every entry of @keel/ai except the Node-only @keel/ai/testing and @keel/ai/credentials/node", async () => {
		const specifiers = packageSpecifiers();
		const needs = await Promise.all(
			specifiers.map((specifier) => nodeNeeds({ contents: `export * from ${JSON.stringify(specifier)};` })),
		);
		const nodeOnly = Object.fromEntries(
			specifiers.flatMap((specifier, index) => (needs[index].length > 0 ? [[specifier, needs[index]]] : [])),
		);
		expect(Object.keys(nodeOnly), JSON.stringify(nodeOnly, null, 2)).toEqual([
			"@keel/ai/testing",
			"@keel/ai/credentials/node",
		]);
	});
});
