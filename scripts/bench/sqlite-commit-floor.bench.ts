// The floor under the SQLite transcript store's append, beside the floor under the JSONL store's,
// with no Keel store code: what raw better-sqlite3 (the version packages/session-sqlite depends on)
// costs per ~2 KB row inserted and committed, next to one write(2) of the same line to a file
// opened with O_APPEND. It shows how much of the gap between the two stores is SQLite's own.
//
// Why a commit costs more than a write: in WAL mode a commit appends to the -wal file one frame for
// every B-tree page the transaction changed, each frame a whole page image (4 KB by default) plus a
// 24-byte header (https://www.sqlite.org/fileformat2.html#walformat). A 2 KB row in a table with
// a primary-key index dirties the table leaf and the index leaf; the store also updates its session
// row and that row's updated_at index entry: four leaves where the JSONL line writes 2 KB. Two rows
// fill a 4 KB leaf, so every other commit also allocates a leaf, which rewrites the table's interior
// page and page 1 (the database size in pages sits in its header, offset 28:
// https://www.sqlite.org/fileformat2.html). With synchronous=NORMAL a WAL commit is not synced to
// the disk (only checkpoints are: https://www.sqlite.org/wal.html,
// https://www.sqlite.org/pragma.html#pragma_synchronous), and neither is the JSONL write, so both
// measure writes into the OS page cache. The empty transaction is the part no row adds: taking and
// releasing the WAL locks, which are byte-range locks on the -shm file (https://www.sqlite.org/walformat.html).
//
// wal_autocheckpoint = 0 during the timed loops: no checkpoint (copying WAL pages back into the
// database file) falls inside a figure. The store runs its checkpoints off the committing thread,
// but they are work the machine still does; these rows leave them out.
//
// Every row: 20,000 appends into fresh files under os.tmpdir() (removed after), three rounds in
// alternating order, the median round shown with the slowest and fastest beside it. "bytes/append"
// is what the appends added to the JSONL files or to the -wal file; "pages/commit" the WAL frames
// each transaction wrote. Rows with 50 sessions write one record to each of 50 sessions per
// transaction (50 files round-robin for JSONL), as the store's group commit does under load. As in
// the stores, JSONL writes ready bytes and SQLite binds the line as a string.
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from "node:fs";
import { createRequire } from "node:module";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { printTable } from "./measure.js";

// better-sqlite3 and its types are dependencies of packages/session-sqlite, not of the repository
// root: the module is loaded from there, and the few calls made here are typed here.
interface SqliteTransaction<Arguments extends unknown[]> {
	immediate(...parameters: Arguments): void;
}
interface SqliteDatabase {
	pragma(source: string, options?: { simple: boolean }): unknown;
	exec(source: string): void;
	prepare(source: string): { run(...parameters: unknown[]): unknown };
	transaction<Arguments extends unknown[]>(body: (...parameters: Arguments) => void): SqliteTransaction<Arguments>;
	close(): void;
}
const requireFromSessionSqlite = createRequire(new URL("../../packages/session-sqlite/package.json", import.meta.url));
const Database = requireFromSessionSqlite("better-sqlite3") as new (path: string) => SqliteDatabase;

const APPENDS = 20_000;
const SESSIONS = 50;
const ROUNDS = 3;
const TENANT = "bench";
/** A 1,946-byte JSON line, the size of the transcript bench's average record (ASCII: bytes = length). */
const LINE = `{"text":"${"x".repeat(1_946 - 11)}"}`;
const SESSION_IDS = Array.from({ length: SESSIONS }, (_, index) => `session-${index}`);

interface Figures {
	ms: number;
	cpuMs: number;
	bytes: number;
	transactions: number;
	pageSize?: number;
}

/** Times `loop` alone: set-up and clean-up stay outside the figures. */
function timed(loop: () => void): { ms: number; cpuMs: number } {
	const cpuBefore = process.cpuUsage();
	const start = performance.now();
	loop();
	const ms = performance.now() - start;
	const cpu = process.cpuUsage(cpuBefore);
	return { ms, cpuMs: (cpu.user + cpu.system) / 1000 };
}

function jsonlFloor(directory: string, sessions: number): Figures {
	const paths = SESSION_IDS.slice(0, sessions).map((id) => join(directory, `${id}.jsonl`));
	const descriptors = paths.map((path) => openSync(path, "a"));
	const bytes = Buffer.from(`${LINE}\n`);
	const { ms, cpuMs } = timed(() => {
		for (let index = 0; index < APPENDS; index++) writeSync(descriptors[index % sessions], bytes);
	});
	for (const descriptor of descriptors) closeSync(descriptor);
	const written = paths.reduce((total, path) => total + statSync(path).size, 0);
	return { ms, cpuMs, bytes: written, transactions: APPENDS };
}

/** A table shape: its schema, and the statements one record's append runs inside a transaction. */
interface Shape {
	schema: string;
	sessionRows: boolean;
	prepareAppend(database: SqliteDatabase): (session: number, seq: number) => void;
}

const RECORDS_WITH_KEY = `CREATE TABLE records (tenant TEXT NOT NULL, session_id TEXT NOT NULL, seq INTEGER NOT NULL,
	line TEXT NOT NULL, PRIMARY KEY (tenant, session_id, seq))`;

const SHAPES: Record<string, Shape> = {
	"no index": {
		schema: "CREATE TABLE records (line TEXT NOT NULL)",
		sessionRows: false,
		prepareAppend(database) {
			const insert = database.prepare("INSERT INTO records (line) VALUES (?)");
			return () => insert.run(LINE);
		},
	},
	"PRIMARY KEY (tenant, session_id, seq)": {
		schema: RECORDS_WITH_KEY,
		sessionRows: false,
		prepareAppend(database) {
			const insert = database.prepare("INSERT INTO records (tenant, session_id, seq, line) VALUES (?, ?, ?, ?)");
			return (session, seq) => insert.run(TENANT, SESSION_IDS[session], seq, LINE);
		},
	},
	"+ session row and updated_at index": {
		schema: `${RECORDS_WITH_KEY};
			CREATE TABLE sessions (tenant TEXT NOT NULL, session_id TEXT NOT NULL, updated_at INTEGER NOT NULL,
				last_seq INTEGER NOT NULL, size_bytes INTEGER NOT NULL, PRIMARY KEY (tenant, session_id)) WITHOUT ROWID;
			CREATE INDEX sessions_newest ON sessions (tenant, updated_at DESC, session_id)`,
		sessionRows: true,
		prepareAppend(database) {
			const insert = database.prepare("INSERT INTO records (tenant, session_id, seq, line) VALUES (?, ?, ?, ?)");
			// As the store does: updated_at moves with the clock, so the index entry moves too.
			const moveOn = database.prepare(
				`UPDATE sessions SET last_seq = ?, size_bytes = size_bytes + ?, updated_at = max(updated_at, ?)
				WHERE tenant = ? AND session_id = ?`,
			);
			return (session, seq) => {
				insert.run(TENANT, SESSION_IDS[session], seq, LINE);
				moveOn.run(seq, LINE.length, Date.now(), TENANT, SESSION_IDS[session]);
			};
		},
	},
};

function openDatabase(path: string, shape: Shape): SqliteDatabase {
	const database = new Database(path);
	database.pragma("journal_mode = WAL");
	database.pragma("synchronous = NORMAL");
	database.pragma("wal_autocheckpoint = 0");
	database.exec(shape.schema);
	if (shape.sessionRows) {
		const create = database.prepare(
			"INSERT INTO sessions (tenant, session_id, updated_at, last_seq, size_bytes) VALUES (?, ?, ?, 0, 0)",
		);
		for (const id of SESSION_IDS) create.run(TENANT, id, Date.now());
	}
	return database;
}

/** `sessions` records per transaction, one to each session, until APPENDS records are in. */
function sqliteFloor(directory: string, shape: Shape, sessions: number): Figures {
	const path = join(directory, "floor.db");
	const database = openDatabase(path, shape);
	const append = shape.prepareAppend(database);
	const appendGroup = database.transaction((seq: number) => {
		for (let session = 0; session < sessions; session++) append(session, seq);
	});
	const transactions = APPENDS / sessions;
	const walBefore = statSync(`${path}-wal`).size;
	const { ms, cpuMs } = timed(() => {
		for (let seq = 1; seq <= transactions; seq++) appendGroup.immediate(seq);
	});
	const bytes = statSync(`${path}-wal`).size - walBefore;
	const pageSize = database.pragma("page_size", { simple: true }) as number;
	database.close();
	return { ms, cpuMs, bytes, transactions, pageSize };
}

/** BEGIN IMMEDIATE + COMMIT with nothing in between: taking the write lock and committing, alone. */
function emptyTransactions(directory: string): Figures {
	const path = join(directory, "empty.db");
	const database = openDatabase(path, SHAPES["no index"]);
	const nothing = database.transaction(() => {});
	const walBefore = statSync(`${path}-wal`).size;
	const { ms, cpuMs } = timed(() => {
		for (let index = 0; index < APPENDS; index++) nothing.immediate();
	});
	const bytes = statSync(`${path}-wal`).size - walBefore;
	database.close();
	return { ms, cpuMs, bytes, transactions: APPENDS };
}

const CASES: { name: string; sessions: number; measure: (directory: string) => Figures }[] = [
	{ name: "JSONL: writeSync to O_APPEND file", sessions: 1, measure: (directory) => jsonlFloor(directory, 1) },
	...Object.entries(SHAPES).map(([name, shape]) => ({
		name: `SQLite: ${name}`,
		sessions: 1,
		measure: (directory: string) => sqliteFloor(directory, shape, 1),
	})),
	{
		name: "JSONL: writeSync to O_APPEND file",
		sessions: SESSIONS,
		measure: (directory) => jsonlFloor(directory, SESSIONS),
	},
	...Object.entries(SHAPES).map(([name, shape]) => ({
		name: `SQLite: ${name}`,
		sessions: SESSIONS,
		measure: (directory: string) => sqliteFloor(directory, shape, SESSIONS),
	})),
	{ name: "SQLite: empty transaction (no row)", sessions: 1, measure: emptyTransactions },
];

export default async function run(): Promise<void> {
	const loadBefore = loadavg()[0];
	const results = CASES.map(() => [] as Figures[]);
	for (let round = 0; round < ROUNDS; round++) {
		// Alternating order: a case does not always run right after the same neighbour.
		const order = CASES.map((_, index) => index);
		if (round % 2 === 1) order.reverse();
		for (const index of order) {
			const directory = mkdtempSync(join(tmpdir(), "keel-commit-floor-"));
			try {
				results[index].push(CASES[index].measure(directory));
			} finally {
				rmSync(directory, { recursive: true, force: true });
			}
		}
	}
	const perAppend = (milliseconds: number) => (milliseconds * 1000) / APPENDS;
	printTable(
		CASES.map((testCase, index) => {
			const rounds = [...results[index]].sort((a, b) => a.ms - b.ms);
			const median = rounds[Math.floor(rounds.length / 2)];
			const frameBytes = median.pageSize === undefined ? undefined : median.pageSize + 24;
			return {
				case: testCase.name,
				sessions: testCase.sessions,
				"µs/append": perAppend(median.ms),
				"fastest–slowest µs": `${perAppend(rounds[0].ms).toFixed(1)}–${perAppend(rounds.at(-1)!.ms).toFixed(1)}`,
				"CPU µs/append": perAppend(median.cpuMs),
				"appends/s": Math.round((APPENDS / median.ms) * 1000),
				"bytes/append": Math.round(median.bytes / APPENDS),
				"pages/commit": frameBytes === undefined ? "" : (median.bytes / frameBytes / median.transactions).toFixed(1),
			};
		}),
	);
	console.log(
		`\n${APPENDS.toLocaleString("en")} appends of a ${LINE.length.toLocaleString("en")}-byte line per row, median of ${ROUNDS} alternating rounds;` +
			` WAL, synchronous=NORMAL, wal_autocheckpoint=0 (no checkpoint inside the figures). Load average ${loadBefore.toFixed(1)} → ${loadavg()[0].toFixed(1)}.`,
	);
}
