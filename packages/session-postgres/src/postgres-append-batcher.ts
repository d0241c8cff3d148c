// Group commit: the appends that the writers of one store make in the same turn of the event loop
// (many sessions of one agent server appending at once) go to the server as ONE statement, so one
// round trip and one commit carry them all instead of one each. The statement still checks every
// session's fencing token as it moves that session's `last_seq` on (a fenced writer's records are
// not inserted, the others' are), and each append's promise settles only once the statement — and
// so its transaction — has returned. A statement that fails commits nothing: every append in it
// gets the error. PostgreSQL may break a deadlock between two instances' statements by aborting one
// (https://www.postgresql.org/docs/current/explicit-locking.html#LOCKING-DEADLOCKS); nothing of it
// was written, so it is sent again. A statement carries at most POSTGRES_MAX_GROUP_BYTES of records
// (postgres-capacity.ts): the appends beyond it wait for the next one. An append that fills an
// outline page (postgres-outline-pages.ts) carries it, inserted by the same statement, only when the
// append is written and lands right after the seq its writer expects.

import { createHash } from "node:crypto";
import type { Pool } from "pg";
import { POSTGRES_MAX_GROUP_BYTES } from "./postgres-capacity.js";
import { isConnectionLost } from "./postgres-connection.js";
import type { OutlinePageRow } from "./postgres-outline-pages.js";
import { DATABASE_NOW_MS } from "./postgres-schema.js";

/** One writer's append, already serialised and measured (postgres-transcript-writer.ts). */
export interface PendingAppend {
	sessionId: string;
	token: number;
	lines: string[];
	outlines: (string | null)[];
	roles: (string | null)[];
	searchTexts: (string | null)[];
	bytes: number;
	newestTimestamp: number;
	title: string | null;
	titleSearch: string | null;
	/** The seq of the session's last record as the writer knows it: the pages are written only if so. */
	afterSeq: number;
	/** The outline pages this append fills. */
	pages: OutlinePageRow[];
	/** Settles with whether the session still carried the writer's token (false: nothing was written). */
	settle(outcome: { moved: boolean } | { error: unknown }): void;
}

export interface AppendBatcher {
	append(pending: PendingAppend): void;
}

/** Deadlock and serialisation failures: the statement was rolled back whole and can be sent again. */
const RETRYABLE_CODES = new Set(["40P01", "40001"]);
const MAX_ATTEMPTS = 5;
/** Statements in flight at once: enough to overlap building one batch with the server running another. */
const MAX_IN_FLIGHT = 2;

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * Free text (titles, search text) as PostgreSQL's JSON decoding accepts it: a lone surrogate becomes
 * U+FFFD, as node-postgres's UTF-8 encoding of a plain parameter would make it, and NUL, which no
 * PostgreSQL text can hold, is dropped. Record lines need neither: they are JSON text already, with
 * such characters escaped.
 */
function storableText(text: string | null): string | null {
	if (text === null) return null;
	return text.replace(LONE_SURROGATE, "\ufffd").replaceAll("\u0000", "");
}

/**
 * The first appends of `pending` whose records come to at most `maxGroupBytes` together, taken out
 * of it; at least one, so an append larger than the cap goes alone.
 */
function takeGroup(pending: PendingAppend[], maxGroupBytes: number): PendingAppend[] {
	let count = 1;
	let bytes = pending[0].bytes;
	while (count < pending.length && bytes + pending[count].bytes <= maxGroupBytes) {
		bytes += pending[count].bytes;
		count++;
	}
	return pending.splice(0, count);
}

export function createAppendBatcher(
	pool: Pool,
	schema: string,
	tenant: string,
	leaseMs: number,
	maxGroupBytes = POSTGRES_MAX_GROUP_BYTES,
): AppendBatcher {
	// The sessions and the records travel as two JSON documents: one parameter each whatever the
	// batch's size, decoded by the server (json_to_recordset).
	const moveAndInsert = `
		WITH input AS (
			SELECT * FROM json_to_recordset($2::json) AS i(n int, session_id text, token bigint, count bigint,
				bytes bigint, newest double precision, title text, title_search text)
		), moved AS (
			UPDATE ${schema}.keel_sessions AS s SET
				last_seq = s.last_seq + i.count, size_bytes = s.size_bytes + i.bytes,
				updated_at = greatest(s.updated_at, i.newest),
				title = coalesce(i.title, s.title), title_search = coalesce(i.title_search, s.title_search),
				lease_expires_at = ${DATABASE_NOW_MS} + $3
			FROM input AS i
			WHERE s.tenant = $1 AND s.session_id = i.session_id COLLATE "C" AND s.writer_token = i.token
			RETURNING i.n, s.session_id, s.last_seq - i.count AS first_seq
		), inserted AS (
			INSERT INTO ${schema}.keel_records (tenant, session_id, seq, role, line, search_text, outline)
			SELECT $1, m.session_id, m.first_seq + r.k, r.role, r.line, r.search_text, r.outline
			FROM moved AS m
			JOIN json_to_recordset($4::json) AS r(n int, k int, role text, line text, search_text text, outline text)
				ON r.n = m.n
		)`;
	// Most groups fill no outline page (one append in 512 does): they run the statement without the
	// page insert. Carried empty by every group, it cost 2–5 % of the bench's 50-session append rate
	// (docs/sessions.md, "PostgreSQL resume through outline pages").
	const plain = { text: `${moveAndInsert}\n\t\tSELECT n FROM moved`, name: "" };
	const withPages = {
		text: `${moveAndInsert}, paged AS (
			INSERT INTO ${schema}.keel_outline_pages (tenant, session_id, first_seq, last_seq, outlines, sizes)
			SELECT $1, m.session_id, p.first_seq, p.last_seq, p.outlines, p.sizes
			FROM moved AS m
			JOIN json_to_recordset($5::json) AS p(n int, after_seq bigint, first_seq bigint, last_seq bigint,
				outlines text, sizes int[])
				ON p.n = m.n AND p.after_seq = m.first_seq
			ON CONFLICT (tenant, session_id, first_seq) DO UPDATE
				SET last_seq = excluded.last_seq, outlines = excluded.outlines, sizes = excluded.sizes
		)
		SELECT n FROM moved`,
		name: "",
	};
	// A named statement is parsed and planned once per connection, not on every batch.
	for (const statement of [plain, withPages])
		statement.name = `keel_append_batch_${createHash("sha256").update(statement.text).digest("hex").slice(0, 24)}`;
	const pending: PendingAppend[] = [];
	let scheduled = false;
	let inFlight = 0;

	async function run(batch: PendingAppend[]): Promise<Set<number>> {
		const sessions = [];
		const records = [];
		const pages = [];
		for (let n = 0; n < batch.length; n++) {
			const append = batch[n];
			sessions.push({
				n,
				session_id: append.sessionId,
				token: append.token,
				count: append.lines.length,
				bytes: append.bytes,
				newest: append.newestTimestamp,
				title: storableText(append.title),
				title_search: storableText(append.titleSearch),
			});
			for (const page of append.pages) pages.push({ n, after_seq: append.afterSeq, ...page });
			for (let k = 0; k < append.lines.length; k++) {
				records.push({
					n,
					k: k + 1,
					role: append.roles[k],
					line: append.lines[k],
					search_text: storableText(append.searchTexts[k]),
					outline: append.outlines[k],
				});
			}
		}
		const values = [tenant, JSON.stringify(sessions), leaseMs, JSON.stringify(records)];
		const statement = pages.length === 0 ? plain : withPages;
		if (pages.length > 0) values.push(JSON.stringify(pages));
		for (let attempt = 1; ; attempt++) {
			try {
				const result = await pool.query<{ n: number }>({ name: statement.name, text: statement.text, values });
				return new Set(result.rows.map((row) => row.n));
			} catch (error) {
				if (attempt >= MAX_ATTEMPTS || !RETRYABLE_CODES.has((error as { code?: string }).code ?? "")) throw error;
			}
		}
	}

	async function flush(): Promise<void> {
		scheduled = false;
		if (pending.length === 0 || inFlight >= MAX_IN_FLIGHT) return;
		const batch = takeGroup(pending, maxGroupBytes);
		inFlight++;
		// What the cap left behind goes in a statement of its own beside this one.
		schedule();
		try {
			const moved = await run(batch);
			for (let n = 0; n < batch.length; n++) batch[n].settle({ moved: moved.has(n) });
		} catch (error) {
			if (batch.length > 1 && (error as { severity?: unknown }).severity !== undefined && !isConnectionLost(error)) {
				// The server refused the statement for something in it: each append alone, so one bad
				// append does not fail the others'.
				await Promise.all(batch.map((append) => runAlone(append)));
			} else {
				for (const append of batch) append.settle({ error });
			}
		} finally {
			inFlight--;
			schedule();
		}
	}

	async function runAlone(append: PendingAppend): Promise<void> {
		try {
			const moved = await run([append]);
			append.settle({ moved: moved.has(0) });
		} catch (error) {
			append.settle({ error });
		}
	}

	function schedule(): void {
		if (scheduled || pending.length === 0 || inFlight >= MAX_IN_FLIGHT) return;
		scheduled = true;
		// setImmediate, not a microtask: the appends that the I/O of this turn lets go (every writer
		// whose previous append just returned) join the batch.
		setImmediate(() => void flush());
	}

	return {
		append(append) {
			pending.push(append);
			schedule();
		},
	};
}
