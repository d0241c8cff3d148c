// What the streaming-provider benchmarks share: a bench model, the four body sizes, and the loop
// that serves each body from the local wire-test server and times the floor (raw fetch + SSE split +
// JSON.parse of the same body) next to the provider and any extra variants, in the same run.
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { WireTestServer } from "../../packages/ai/src/testing/wire-test-server.js";
import type { Api, Model } from "../../packages/ai/src/types.js";
import { medianMs, printTable, sseFloorMs } from "./measure.js";

/**
 * A vendor SDK for the comparison columns. The SDKs are dependencies of @keel/ai (for their types),
 * not of the repository root, so they are resolved from the package's folder.
 */
export async function importVendorSdk<T>(name: "openai" | "@anthropic-ai/sdk"): Promise<T> {
	const resolveFromPackage = createRequire(new URL("../../packages/ai/package.json", import.meta.url));
	return (await import(pathToFileURL(resolveFromPackage.resolve(name)).href)) as T;
}

/** A text-only model at `baseUrl` with limits no bench body reaches. */
export function benchModel<TApi extends Api>(
	api: TApi,
	baseUrl: string,
	overrides: Partial<Model<TApi>> = {},
): Model<TApi> {
	return {
		id: "bench-model",
		name: "Bench",
		api,
		provider: "openai",
		baseUrl,
		reasoning: false,
		input: ["text"],
		cost: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 },
		contextWindow: 1_000_000,
		maxTokens: 100_000,
		...overrides,
	};
}

/** A JSON object whose one string value fills `bytes`, cut into the 64-byte deltas the bodies send. */
export function toolArgumentDeltas(bytes: number): { argumentsText: string; deltas: string[] } {
	const argumentsText = JSON.stringify({ content: "x".repeat(Math.max(0, bytes - 14)) });
	const deltas: string[] = [];
	for (let offset = 0; offset < argumentsText.length; offset += 64)
		deltas.push(argumentsText.slice(offset, offset + 64));
	return { argumentsText, deltas };
}

export interface ProviderWireBench {
	/** The request path the floor fetches (the server answers any path). */
	path: string;
	textBody(deltas: number): string;
	toolBody(argumentBytes: number): string;
	/** One full stream through the provider; throws when it ends in an error. */
	provider(server: WireTestServer): Promise<void>;
	/** Further timed variants (e.g. the SDK's own iterator), each a column after the provider's. */
	variants?: (server: WireTestServer) => Record<string, () => Promise<void>>;
	/** Runs per median (default 5). */
	repeat?: number;
	/** Run every case this many times and print the last pass only, so the JIT has settled (default 1). */
	passes?: number;
}

/** Throws when a bench stream failed: a broken stream would otherwise look fast. */
export function assertStreamSucceeded(result: { stopReason: string; errorMessage?: string }): void {
	if (result.stopReason === "error") throw new Error(`bench stream failed: ${result.errorMessage}`);
}

export async function runProviderWireBench(bench: ProviderWireBench): Promise<void> {
	const server = await WireTestServer.start();
	const cases = [
		{ name: "text, 20k deltas", body: bench.textBody(20_000) },
		{ name: "tool args 16 KB / 64 B deltas", body: bench.toolBody(16 * 1024) },
		{ name: "tool args 64 KB / 64 B deltas", body: bench.toolBody(64 * 1024) },
		{ name: "tool args 256 KB / 64 B deltas", body: bench.toolBody(256 * 1024) },
	];
	const passes = bench.passes ?? 1;
	const rows: Record<string, string | number>[] = [];
	try {
		const variants = bench.variants?.(server) ?? {};
		for (let pass = 0; pass < passes; pass++) {
			for (const { name, body } of cases) {
				const timed = (task: () => Promise<unknown>) =>
					medianMs(async () => {
						server.enqueue({ body });
						await task();
					}, bench.repeat);
				const floor = await timed(() => sseFloorMs(`${server.url}${bench.path}`, { method: "POST", body: "{}" }));
				const provider = await timed(() => bench.provider(server));
				const row: Record<string, string | number> = {
					case: name,
					"body KB": Math.round(body.length / 1024),
					"floor ms": floor,
					"provider ms": provider,
					"× floor": provider / floor,
				};
				for (const [column, task] of Object.entries(variants)) row[column] = await timed(task);
				if (pass === passes - 1) rows.push(row);
			}
		}
	} finally {
		await server.close();
	}
	printTable(rows);
}
