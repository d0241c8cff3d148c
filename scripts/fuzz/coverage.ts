// Block coverage of Keel's own sources, read from V8 through the inspector after every input, so
// the campaign can tell an input that reached new code from one that did not. Precise coverage with
// call counts resets its counters on each take, so each take is exactly one input's coverage.
// @see https://chromedevtools.github.io/devtools-protocol/tot/Profiler/#method-takePreciseCoverage
import { Session } from "node:inspector/promises";

/** A covered block: `<file>:<start>-<end>` of the code V8 runs (after tsx's transform). */
export type CoverageFeature = string;

export class SourceCoverage {
	private readonly session = new Session();
	/** Every block seen in Keel's sources, covered or not, by file. */
	readonly blocksByFile = new Map<string, Set<string>>();

	constructor(private readonly sourcePattern: RegExp) {}

	async start(): Promise<void> {
		this.session.connect();
		await this.session.post("Profiler.enable");
		await this.session.post("Profiler.startPreciseCoverage", { callCount: true, detailed: true });
	}

	/** The blocks of Keel's sources run since the last take. */
	async take(): Promise<Set<CoverageFeature>> {
		const { result } = await this.session.post("Profiler.takePreciseCoverage");
		const covered = new Set<CoverageFeature>();
		for (const script of result) {
			if (!this.sourcePattern.test(script.url)) continue;
			const file = script.url.replace(/^.*\/packages\//, "packages/");
			let blocks = this.blocksByFile.get(file);
			if (!blocks) {
				blocks = new Set();
				this.blocksByFile.set(file, blocks);
			}
			for (const fn of script.functions) {
				for (const range of fn.ranges) {
					const feature = `${file}:${range.startOffset}-${range.endOffset}`;
					blocks.add(feature);
					if (range.count > 0) covered.add(feature);
				}
			}
		}
		return covered;
	}

	async stop(): Promise<void> {
		await this.session.post("Profiler.stopPreciseCoverage");
		this.session.disconnect();
	}
}
