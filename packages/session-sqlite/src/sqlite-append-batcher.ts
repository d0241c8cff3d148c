// Group commit: the appends that writers of one database make in the same turn of the event loop
// (many sessions of one server appending at once) are committed by ONE transaction instead of one
// each, so the pages they share (the session table, the indexes) are written to the WAL once. Each
// append runs in a savepoint of its own inside it (better-sqlite3 turns a nested transaction into a
// SAVEPOINT: https://github.com/WiseLibs/better-sqlite3/blob/master/docs/api.md#transactionfunction---function),
// so an append that fails (a fenced writer) is undone alone while the others commit; each append's
// promise settles only once the whole transaction has committed.

import type { Database } from "better-sqlite3";

export interface AppendBatcher {
	/** Runs `work` in the next group transaction; resolves with its result once that transaction committed. */
	run<T>(work: () => T): Promise<T>;
}

interface Pending {
	work: () => unknown;
	resolve(value: unknown): void;
	reject(error: unknown): void;
}

type Outcome = { value: unknown } | { error: unknown };

// One per database, shared by the stores of every tenant over it: a database runs one write
// transaction at a time anyway.
const batchers = new WeakMap<Database, AppendBatcher>();

export function appendBatcherOf(database: Database): AppendBatcher {
	let batcher = batchers.get(database);
	if (!batcher) {
		batcher = createAppendBatcher(database);
		batchers.set(database, batcher);
	}
	return batcher;
}

function createAppendBatcher(database: Database): AppendBatcher {
	let pending: Pending[] = [];
	const runAll = database.transaction((works: Pending[]): Outcome[] =>
		works.map((item) => {
			try {
				return { value: item.work() };
			} catch (error) {
				return { error };
			}
		}),
	);

	function flush(): void {
		const batch = pending;
		pending = [];
		let outcomes: Outcome[];
		try {
			// IMMEDIATE: the write lock is taken at BEGIN, so another process's writer makes this wait
			// (busy timeout) rather than fail part-way.
			outcomes = runAll.immediate(batch);
		} catch (error) {
			for (const item of batch) item.reject(error);
			return;
		}
		for (let index = 0; index < batch.length; index++) {
			const outcome = outcomes[index];
			if ("error" in outcome) batch[index].reject(outcome.error);
			else batch[index].resolve(outcome.value);
		}
	}

	return {
		run<T>(work: () => T): Promise<T> {
			return new Promise<T>((resolve, reject) => {
				// setImmediate, not a microtask: the appends that the I/O of this turn lets go (every
				// writer whose previous append just committed) join the same transaction.
				if (pending.length === 0) setImmediate(flush);
				pending.push({ work, resolve: resolve as (value: unknown) => void, reject });
			});
		},
	};
}
