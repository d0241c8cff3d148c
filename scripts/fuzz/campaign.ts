// A coverage-guided fuzzing campaign over Keel's decoders and parsers, longer than the fuzz tests in
// the suite (which run fixed seeds for a bounded number of runs). Not part of `npm test`.
//
//   node --import tsx scripts/fuzz/campaign.ts [--seconds-per-target 60] [--targets stream:,reader:] [--seed 1]
//
// Jazzer.js, the coverage-guided fuzzer for JavaScript, ships a native libFuzzer binding built
// against glibc 2.38, which does not load on older systems (Debian 12 has 2.36). So the loop is
// written here on the same principle: inputs are mutated from a corpus (fast-check's mutations of
// body-mutations.ts, and crossovers of two corpus entries), V8's precise block coverage of Keel's
// sources is taken after each input, and an input that reached a new block joins the corpus.
// Findings (a thrown exception, a broken rule, a run that did not end within 10 s) are printed and
// written to --out as JSON, each with the input that caused it.
import { mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { bodyMutation, chunkSizes, mutateBody } from "../../packages/ai/test/fuzz/body-mutations.js";
import { SourceCoverage } from "./coverage.js";
import { allTargets, type FuzzInput, type FuzzTarget } from "./targets.js";

const HANG_MILLISECONDS = 10_000;

function option(name: string, fallback: string): string {
	const index = process.argv.indexOf(`--${name}`);
	return index === -1 ? fallback : process.argv[index + 1];
}

const secondsPerTarget = Number(option("seconds-per-target", "60"));
const targetFilter = option("targets", "").split(",").filter(Boolean);
let seed = Number(option("seed", "1"));
const out = option("out", join(tmpdir(), "keel-fuzz-findings"));

/** A small seeded generator for the loop's own choices (fast-check gets a fresh seed per draw). */
function nextRandom(): number {
	seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
	return seed / 2_147_483_648;
}

const mutationDraw = fc.tuple(fc.array(bodyMutation, { minLength: 1, maxLength: 3 }), chunkSizes);

function mutate(corpus: FuzzInput[]): FuzzInput {
	const parent = corpus[Math.floor(nextRandom() * corpus.length)];
	const [[mutations, sizes]] = fc.sample(mutationDraw, { seed: Math.floor(nextRandom() * 2 ** 31), numRuns: 1 });
	let text = parent.text;
	if (corpus.length > 1 && nextRandom() < 0.1) {
		// Crossover: the start of this entry, the end of another.
		const other = corpus[Math.floor(nextRandom() * corpus.length)].text;
		text = text.slice(0, Math.floor(nextRandom() * text.length)) + other.slice(Math.floor(nextRandom() * other.length));
	}
	return { text: mutateBody(text, mutations), sizes: nextRandom() < 0.5 ? sizes : parent.sizes };
}

async function runGuarded(target: FuzzTarget, input: FuzzInput): Promise<string | undefined> {
	let timer: ReturnType<typeof setTimeout> | undefined;
	const hang = new Promise<string>((resolve) => {
		timer = setTimeout(() => resolve(`did not end within ${HANG_MILLISECONDS / 1000} s`), HANG_MILLISECONDS);
	});
	try {
		return await Promise.race([
			target
				.run(input)
				.catch(
					(error: unknown) => `threw ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`,
				),
			hang,
		]);
	} finally {
		clearTimeout(timer);
	}
}

interface TargetReport {
	target: string;
	inputs: number;
	corpus: number;
	blocksCovered: number;
	findings: { rule: string; input: FuzzInput }[];
}

async function fuzzTarget(
	target: FuzzTarget,
	coverage: SourceCoverage,
	everCovered: Set<string>,
): Promise<TargetReport> {
	await target.setup?.();
	const seen = new Set<string>();
	const corpus: FuzzInput[] = [];
	const findings: TargetReport["findings"] = [];
	const rules = new Set<string>();
	let inputs = 0;
	// Each take resets V8's counters, so a take after the run holds that run's blocks (the loop's own
	// code between runs is not in Keel's sources).
	await coverage.take();
	const consider = async (input: FuzzInput, always: boolean) => {
		const rule = await runGuarded(target, input);
		inputs++;
		let added = always;
		for (const feature of await coverage.take()) {
			everCovered.add(feature);
			if (!seen.has(feature)) {
				seen.add(feature);
				added = true;
			}
		}
		if (added) corpus.push(input);
		const key = rule?.replace(/\d+/g, "N").slice(0, 120);
		if (rule && key && !rules.has(key)) {
			rules.add(key);
			findings.push({ rule, input });
			console.log(`  finding in ${target.name}: ${rule}`);
		}
	};
	for (const text of target.seeds) await consider({ text, sizes: [4096] }, true);
	const deadline = Date.now() + secondsPerTarget * 1000;
	while (Date.now() < deadline) await consider(mutate(corpus), false);
	await target.teardown?.();
	return { target: target.name, inputs, corpus: corpus.length, blocksCovered: seen.size, findings };
}

const coverage = new SourceCoverage(/\/packages\/(ai|agent)\/src\//);
await coverage.start();
const everCovered = new Set<string>();
const reports: TargetReport[] = [];
for (const target of await allTargets()) {
	if (targetFilter.length > 0 && !targetFilter.some((prefix) => target.name.startsWith(prefix))) continue;
	console.log(`${target.name}: ${secondsPerTarget} s`);
	const report = await fuzzTarget(target, coverage, everCovered);
	console.log(
		`  ${report.inputs} inputs, corpus ${report.corpus}, ${report.blocksCovered} blocks, ${report.findings.length} findings`,
	);
	reports.push(report);
}
await coverage.stop();

/** Blocks covered of the blocks V8 reported, for the decoders and readers the campaign aims at. */
const files: Record<string, { covered: number; known: number }> = {};
for (const [file, blocks] of coverage.blocksByFile) {
	if (
		!/decode|sse|event-stream-frames|streaming-json|json-repair|record-format|session-tree|context-loading|message-validation/.test(
			file,
		)
	)
		continue;
	let covered = 0;
	for (const block of blocks) if (everCovered.has(block)) covered++;
	files[file] = { covered, known: blocks.size };
}
mkdirSync(out, { recursive: true });
const summary = { secondsPerTarget, seed: Number(option("seed", "1")), reports, files };
writeFileSync(join(out, "campaign.json"), JSON.stringify(summary, null, "\t"));
console.log("\nblock coverage of the decoders and readers (covered / reported by V8):");
for (const [file, { covered, known }] of Object.entries(files).sort()) console.log(`  ${file}: ${covered}/${known}`);
console.log(
	`\ninputs: ${reports.reduce((sum, report) => sum + report.inputs, 0)}; findings: ${reports.reduce((sum, report) => sum + report.findings.length, 0)}; written to ${join(out, "campaign.json")}`,
);
process.exit(0);
