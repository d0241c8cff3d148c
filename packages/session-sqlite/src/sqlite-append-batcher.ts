// Group commit without a wait. better-sqlite3 is synchronous, so an append that finds no group open
// commits at once, in a transaction of its own, before `run` returns: one writer awaiting each append
// never waits for a later turn of the event loop. That commit opens a group for the rest of the
// current run of microtasks: appends made meanwhile (many sessions of one server whose previous
// appends just committed all continue in the same microtask run) are queued and committed together
// by ONE transaction when the group closes, so the pages they share (the session table, the indexes)
// are written to the WAL once. Each append's promise settles only once the transaction holding it
// has committed.
//
// A group runs its appends one after the other in its transaction, with no savepoints: a savepoint
// per append (two more statements each) cost about 4 µs of CPU per append. When one of them fails
// (a fenced writer), the whole transaction is rolled back and the group runs again, each append in
// a savepoint of its own (better-sqlite3 turns a nested transaction into a SAVEPOINT:
// https://github.com/WiseLibs/better-sqlite3/blob/master/docs/api.md#transactionfunction---function),
// so the failed one is undone alone while the others commit. An append's work may therefore run
// twice; the writer's work is written for that (sqlite-transcript-writer.ts).

import type { Database } from "better-sqlite3";
import { walCheckpointerOf } from "./sqlite-wal-checkpointer.js";

export interface AppendBatcher {
	/**
	 * Runs `work` in a transaction (alone, or in a group's): what it wrote commits whole or not at
	 * all. Resolves with its result once that transaction committed. `work` may run a second time,
	 * after a rollback, when another append of its group failed.
	 */
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

export function createAppendBatcher(database: Database): AppendBatcher {
	let pending: Pending[] = [];
	// True from a commit until the microtasks queued behind it have run: appends made then are grouped.
	let groupOpen = false;
	// The group as it runs when nothing fails: the first failure of an append rolls all of it back.
	let anAppendFailed = false;
	const runPlain = database.transaction((works: Pending[]): Outcome[] =>
		works.map((item) => {
			try {
				return { value: item.work() };
			} catch (error) {
				anAppendFailed = true;
				throw error;
			}
		}),
	);
	// Called inside runIsolated's transaction, a transaction function runs as a savepoint.
	const inSavepoint = database.transaction((work: () => unknown) => work());
	const runIsolated = database.transaction((works: Pending[]): Outcome[] =>
		works.map((item) => {
			try {
				return { value: inSavepoint(item.work) };
			} catch (error) {
				return { error };
			}
		}),
	);
	const committed = (appends: number) => walCheckpointerOf(database)?.committed(appends);
	const runOne = database.transaction((work: () => unknown) => work());

	function closeGroup(): void {
		if (pending.length === 0) {
			groupOpen = false;
			return;
		}
		const batch = pending;
		pending = [];
		// The group stays open behind this commit too, for the appends its settled promises let go.
		queueMicrotask(closeGroup);
		let outcomes: Outcome[];
		try {
			// IMMEDIATE: the write lock is taken at BEGIN, so another process's writer makes this wait
			// (busy timeout) rather than fail part-way.
			anAppendFailed = false;
			try {
				outcomes = runPlain.immediate(batch);
			} catch (error) {
				// Not an append's failure (the write lock was not had, say): every append of the group fails.
				if (!anAppendFailed) throw error;
				outcomes = runIsolated.immediate(batch);
			}
		} catch (error) {
			for (const item of batch) item.reject(error);
			return;
		}
		committed(batch.length);
		for (let index = 0; index < batch.length; index++) {
			const outcome = outcomes[index];
			if ("error" in outcome) batch[index].reject(outcome.error);
			else batch[index].resolve(outcome.value);
		}
	}

	return {
		run<T>(work: () => T): Promise<T> {
			// Inside a transaction the caller opened on a database it shares with the store, an append
			// waits for the group rather than commit as part of the caller's transaction.
			if (groupOpen || database.inTransaction) {
				return new Promise<T>((resolve, reject) => {
					if (!groupOpen) {
						groupOpen = true;
						// A caller's transaction may still be open in a microtask: a later turn, then.
						setImmediate(closeGroup);
					}
					pending.push({ work, resolve: resolve as (value: unknown) => void, reject });
				});
			}
			groupOpen = true;
			queueMicrotask(closeGroup);
			let value: T;
			try {
				value = runOne.immediate(work) as T;
			} catch (error) {
				return Promise.reject(error);
			}
			committed(1);
			return Promise.resolve(value);
		},
	};
}
