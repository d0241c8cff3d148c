// Checks that work grows linearly with input size, without a wall-clock budget: the same input
// shape is run at a size and at eight times that size, and the ratio of the CPU time this process
// spent is compared with a generous bound. Linear work gives about 8, quadratic about 64; the bound
// of 24 leaves room for noise on a loaded machine. Each size takes the fastest of several runs
// after a warm-up, so a garbage collection or a JIT tier-up in one run does not decide.

/** Microseconds of CPU (user + system) this process spends in `run`. */
async function cpuMicroseconds(run: () => unknown): Promise<number> {
	const start = process.cpuUsage();
	await run();
	const used = process.cpuUsage(start);
	return used.user + used.system;
}

async function fastest(run: () => unknown, repetitions: number): Promise<number> {
	let best = Number.POSITIVE_INFINITY;
	for (let index = 0; index < repetitions; index++) best = Math.min(best, await cpuMicroseconds(run));
	return Math.max(best, 1);
}

export const GROWTH_FACTOR = 8;
/** The ratio above which growth is taken as superlinear (quadratic gives about 64). */
export const LINEAR_GROWTH_BOUND = 24;

/** CPU time at 8 × `size` divided by CPU time at `size`, for an input built by `workload(size)`. */
export async function workGrowth(
	workload: (size: number) => () => unknown,
	size: number,
	repetitions = 5,
): Promise<number> {
	const small = workload(size);
	const large = workload(size * GROWTH_FACTOR);
	await small();
	await large();
	return (await fastest(large, repetitions)) / (await fastest(small, repetitions));
}
