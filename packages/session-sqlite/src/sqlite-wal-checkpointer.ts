// Checkpoints off the appending thread. SQLite's automatic checkpoint runs inside the commit that
// passes 1,000 WAL pages: that commit copies the WAL's pages into the database file and fsyncs it
// on the thread that is appending (https://www.sqlite.org/wal.html#automatic_checkpoint). The store
// turns it off on its own connection (wal_autocheckpoint = 0) and a worker thread with a connection
// of its own runs PASSIVE checkpoints instead, each time some appends went by: a PASSIVE checkpoint
// copies what it can without waiting for, or blocking, any writer
// (https://www.sqlite.org/c3ref/wal_checkpoint_v2.html).
//
// While appends keep coming, the worker never quite catches up with the end of the WAL, and SQLite
// only starts the WAL over from its beginning when a checkpoint has copied all of it. So the WAL is
// bounded on the appending thread: once the -wal file passes WAL_LIMIT_BYTES, that thread runs a
// PASSIVE checkpoint itself (the worker has copied most of it already), after which the next commit
// starts the WAL over. The file is then written over rather than grown again: journal_size_limit
// only cuts it back to the limit (cutting it shorter, to 4 MiB, and growing it again cost about
// 10 µs more CPU per append).
//
// Durability does not change: a commit is in the WAL before it resolves, whoever copies it later,
// and each checkpoint syncs the WAL before copying it (synchronous = NORMAL), as SQLite's own did.

import { statSync } from "node:fs";
import { createRequire } from "node:module";
import { resolve } from "node:path";
import { Worker } from "node:worker_threads";
import type { Database } from "better-sqlite3";

/** The -wal file's size past which the appending thread checkpoints itself. */
export const WAL_LIMIT_BYTES = 64 * 1024 * 1024;
/**
 * Appends committed between two nudges of the worker (and two looks at the -wal file's size):
 * appends rather than commits, as a group commit of 50 sessions writes 50 appends' pages.
 */
const APPENDS_PER_CHECK = 64;
/** How long close(), or a WAL past its limit, waits for the worker to finish a checkpoint. */
const STOP_WAIT_MS = 10_000;

export interface WalCheckpointer {
	/** Called after each commit on the database, with how many appends it held; never throws. */
	committed(appends: number): void;
	/** Stops the worker, its connection closed, before the caller closes the database. */
	stop(): void;
}

const checkpointers = new WeakMap<Database, WalCheckpointer>();
const running = new Set<Worker>();

/** The checkpoint workers of this process that have not exited (for tests). */
export function runningCheckpointWorkers(): Worker[] {
	return [...running];
}

/** The checkpointer of a database the store opened, if it has one. */
export function walCheckpointerOf(database: Database): WalCheckpointer | undefined {
	return checkpointers.get(database);
}

// Plain CommonJS run with `eval: true`: the package's build has one entry, and a worker file beside
// the sources would be TypeScript under the tests. better-sqlite3 is required by its resolved path.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.betterSqlite3);
const state = new Int32Array(workerData.state);
const database = new Database(workerData.path, { timeout: 0 });
parentPort.on("message", (message) => {
	if (message === "checkpoint") {
		try { database.pragma("wal_checkpoint(PASSIVE)"); } catch {}
		Atomics.store(state, 1, 0);
		Atomics.notify(state, 1);
		return;
	}
	database.close();
	Atomics.store(state, 0, 1);
	Atomics.notify(state, 0);
	parentPort.close();
});
`;

/**
 * Takes checkpoints of the database at `file` (opened by the store, in WAL mode) off its thread.
 * When the worker cannot start or stops, SQLite's automatic checkpoint is turned back on.
 */
export function startWalCheckpointer(database: Database, file: string): WalCheckpointer | undefined {
	// A database that is not in WAL mode (in memory, say) keeps SQLite's own ways.
	if (database.pragma("journal_mode", { simple: true }) !== "wal") return undefined;
	// The worker opens the same file even if this process's working directory changes meanwhile.
	const path = resolve(file);
	const walPath = `${path}-wal`;
	// [0]: set to 1 by the worker once its connection is closed; close() waits on it. [1]: 1 while
	// the worker has a checkpoint to run. Shared memory rather than messages back: one writer awaiting
	// each append may not let this thread's event loop turn for a long time.
	const state = new Int32Array(new SharedArrayBuffer(8));
	let worker: Worker | undefined;
	let appendsSinceCheck = 0;
	let stopped = false;

	const fallBack = () => {
		worker = undefined;
		if (database.open) database.pragma("wal_autocheckpoint = 1000");
	};
	try {
		worker = new Worker(WORKER_SOURCE, {
			eval: true,
			workerData: {
				path,
				betterSqlite3: createRequire(import.meta.url).resolve("better-sqlite3"),
				state: state.buffer,
			},
		});
		const started = worker;
		running.add(started);
		worker.unref();
		worker.on("error", fallBack);
		worker.on("exit", () => {
			running.delete(started);
			if (!stopped) fallBack();
		});
		database.pragma("wal_autocheckpoint = 0");
		database.pragma(`journal_size_limit = ${WAL_LIMIT_BYTES}`);
	} catch {
		fallBack();
	}

	const checkpointer: WalCheckpointer = {
		committed(appends) {
			appendsSinceCheck += appends;
			if (appendsSinceCheck < APPENDS_PER_CHECK || worker === undefined) return;
			appendsSinceCheck = 0;
			let walBytes = 0;
			try {
				walBytes = statSync(walPath).size;
			} catch {
				return; // No WAL file: nothing to copy.
			}
			if (walBytes > WAL_LIMIT_BYTES) {
				// The worker's checkpoint under way would make this one give up (busy): it finishes
				// first. Then this thread copies the rest, the worker idle, and the next commit starts
				// the WAL over. A worker that does not finish in time is taken for gone.
				if (Atomics.load(state, 1) === 1 && Atomics.wait(state, 1, 1, STOP_WAIT_MS) === "timed-out") {
					void worker.terminate();
					fallBack();
					return;
				}
				try {
					database.pragma("wal_checkpoint(PASSIVE)");
				} catch {
					// The appends committed; a checkpoint that could not run now runs at a later check.
				}
				return;
			}
			if (Atomics.load(state, 1) === 0) {
				Atomics.store(state, 1, 1);
				worker.postMessage("checkpoint");
			}
		},
		stop() {
			if (stopped) return;
			stopped = true;
			checkpointers.delete(database);
			if (worker === undefined) return;
			worker.postMessage("stop");
			// Synchronous, so the caller's database.close() is the last connection: SQLite then
			// checkpoints the whole WAL and removes the file.
			Atomics.wait(state, 0, 0, STOP_WAIT_MS);
			void worker.terminate();
		},
	};
	checkpointers.set(database, checkpointer);
	return checkpointer;
}
