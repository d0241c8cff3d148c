// The SQLite store's paging of a session written before outline pages existed, in a fresh process.
// Prints one JSON line. Run with TSX_TSCONFIG_PATH set as for transcript-stores-child.ts.
// Usage: node --import tsx sqlite-outline-backfill.ts <mode> <database path> [session id, default "big"]
//   unpage    deletes the session's outline pages: its records and rows stay as written, so it is a
//             session no writer has paged (as one written before schema version 5 is once upgraded)
//   backfill  opens a writer on the session and waits for its background paging; reports the time
//             and CPU it took, the pages written and the longest the event loop was held meanwhile
import { createRequire } from "node:module";
import { monitorEventLoopDelay } from "node:perf_hooks";
import type BetterSqlite3 from "better-sqlite3";
import { createSqliteTranscriptStore } from "../../packages/session-sqlite/src/index.js";
import { outlineBackfillOf } from "../../packages/session-sqlite/src/sqlite-outline-backfill.js";

// better-sqlite3 is a dependency of the SQLite store's package, not of the repository's root.
const Database = createRequire(new URL("../../packages/session-sqlite/package.json", import.meta.url))(
	"better-sqlite3",
) as typeof BetterSqlite3;

const [mode, path, sessionId = "big"] = process.argv.slice(2);

function pageCount(): number {
	const database = new Database(path, { readonly: true });
	try {
		return database
			.prepare("SELECT count(*) FROM keel_outline_pages WHERE session_id = ?")
			.pluck()
			.get(sessionId) as number;
	} finally {
		database.close();
	}
}

if (mode === "unpage") {
	const database = new Database(path);
	const deleted = database.prepare("DELETE FROM keel_outline_pages WHERE session_id = ?").run(sessionId).changes;
	database.pragma("wal_checkpoint(TRUNCATE)");
	database.close();
	process.stdout.write(`${JSON.stringify({ deleted })}\n`);
} else if (mode === "backfill") {
	const store = createSqliteTranscriptStore({ path });
	const delay = monitorEventLoopDelay({ resolution: 1 });
	delay.enable();
	const start = performance.now();
	const cpuStart = process.cpuUsage();
	const writer = await store.openWriter(sessionId);
	const openedMs = performance.now() - start;
	await outlineBackfillOf(writer);
	const ms = performance.now() - start;
	const cpu = process.cpuUsage(cpuStart);
	delay.disable();
	await writer.close();
	store.close();
	process.stdout.write(
		`${JSON.stringify({
			openedMs,
			ms,
			cpuMs: (cpu.user + cpu.system) / 1000,
			pages: pageCount(),
			longestEventLoopDelayMs: delay.max / 1e6,
		})}\n`,
	);
} else {
	throw new Error(`unknown mode ${mode}: use unpage or backfill`);
}
