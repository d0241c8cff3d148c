// Generates packages/ai/src/models.generated.ts, the typed model catalogue.
//
//   node --import tsx scripts/generate-models.ts            offline snapshot + curated rows (default)
//   node --import tsx scripts/generate-models.ts --live     the public catalogues, when reachable
//   node --import tsx scripts/generate-models.ts --check    exit 1 when the committed file is stale
//
// Live source URLs: --models-dev-url, --openrouter-url, --vercel-gateway-url, or the variables
// KEEL_MODELS_DEV_URL, KEEL_OPENROUTER_MODELS_URL, KEEL_VERCEL_GATEWAY_MODELS_URL. KEEL_MODELS_LIVE=1
// is the same as --live. --timeout-ms bounds each request (default 15000). --out changes the output.
import { fileURLToPath } from "node:url";
import { runGenerator } from "../packages/ai/catalog/generator/run.js";
import { DEFAULT_LIVE_TIMEOUT_MS, liveSourceUrlsFromEnvironment } from "../packages/ai/catalog/generator/sources.js";

const defaultOutput = fileURLToPath(new URL("../packages/ai/src/models.generated.ts", import.meta.url));

const valueFlags = ["--out", "--models-dev-url", "--openrouter-url", "--vercel-gateway-url", "--timeout-ms"] as const;
const booleanFlags = ["--live", "--check"] as const;

function parseArguments(argv: string[]): Map<string, string | true> {
	const parsed = new Map<string, string | true>();
	for (let index = 0; index < argv.length; index++) {
		const argument = argv[index];
		const [name, inlineValue] = argument.split(/=(.*)/s, 2);
		if ((booleanFlags as readonly string[]).includes(name)) parsed.set(name, true);
		else if ((valueFlags as readonly string[]).includes(name)) {
			const value = inlineValue ?? argv[++index];
			if (value === undefined || value === "") throw new Error(`${name} needs a value`);
			parsed.set(name, value);
		} else {
			throw new Error(`Unknown argument "${argument}". Known: ${[...booleanFlags, ...valueFlags].join(", ")}`);
		}
	}
	return parsed;
}

async function main(): Promise<number> {
	const flags = parseArguments(process.argv.slice(2));
	const urls = liveSourceUrlsFromEnvironment(process.env);
	const text = (name: string) => {
		const value = flags.get(name);
		return typeof value === "string" ? value : undefined;
	};
	const timeoutMs = Number(text("--timeout-ms") ?? DEFAULT_LIVE_TIMEOUT_MS);
	if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new Error("--timeout-ms must be a positive number");

	const result = await runGenerator({
		live: flags.has("--live") || process.env.KEEL_MODELS_LIVE === "1",
		liveUrls: {
			modelsDev: text("--models-dev-url") ?? urls.modelsDev,
			openRouter: text("--openrouter-url") ?? urls.openRouter,
			vercelGateway: text("--vercel-gateway-url") ?? urls.vercelGateway,
		},
		timeoutMs,
		outputPath: text("--out") ?? defaultOutput,
		check: flags.has("--check"),
		log: (line) => console.log(line),
	});
	if (flags.has("--check") && result.stale) {
		console.error("models.generated.ts is stale: run `pnpm generate-models` and commit the result.");
		return 1;
	}
	return 0;
}

main().then(
	(code) => {
		process.exitCode = code;
	},
	(error: unknown) => {
		console.error(`generate-models: ${error instanceof Error ? error.message : String(error)}`);
		process.exitCode = 1;
	},
);
