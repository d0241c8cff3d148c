// Outline pages are a cache of the record rows: load: "context" reads them instead of every row, and
// gets exactly what the rows give whatever state the pages are in (whole, stopping short, garbled,
// absent because the session was written before they existed). Writers fill them as they append,
// pick up where they stop short, and a fenced writer writes none.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import {
	type ParsedSessionRecord,
	Session,
	type SessionMessageRecord,
	type SessionRecord,
} from "@keel/agent-core/session";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createPostgresTranscriptStore, type PostgresTranscriptStore } from "../src/index.js";
import { OUTLINE_PAGE_RECORDS } from "../src/postgres-outline-pages.js";
import { createTestSchema, dropTestSchema, POSTGRES_URL, withAdmin } from "./postgres-test-database.js";

const SESSION = "paged";

function header(sessionId = SESSION): SessionRecord {
	return { v: 1, type: "session", sessionId, timestamp: 1 };
}

/**
 * Records `from` to `to` of a session with every kind a page holds or points past: user and
 * assistant messages with tool calls, tool results, a fork off an earlier message, a tombstone, a
 * title, a compaction (summary and boundary) and a leaf record.
 */
function records(from: number, to: number, sessionId = SESSION, tag = ""): SessionRecord[] {
	const made: SessionRecord[] = [];
	for (let index = from; index < to; index++) {
		const timestamp = 1_000 + index;
		const base = { v: 1, type: "message" as const, sessionId, id: `m${index}`, timestamp };
		const parentId = index === 0 ? null : index === 700 ? "m300" : `m${index - 1}`;
		if (index === 450) {
			made.push({ v: 1, type: "title", sessionId, timestamp, title: `Title ${tag}` });
			continue;
		}
		if (index === 451) {
			made.push({ ...base, parentId: "m449", message: { role: "tombstone", targetId: "m440", timestamp } });
			continue;
		}
		if (index === 900) {
			made.push({
				...base,
				parentId,
				message: { role: "summary", summary: `summary ${tag}`, summarisedMessageCount: 800, timestamp },
			});
			continue;
		}
		if (index === 901) {
			made.push({
				...base,
				parentId,
				message: {
					role: "compact_boundary",
					trigger: "auto",
					summaryId: "m900",
					firstKeptMessageId: "m850",
					timestamp,
				},
			});
			continue;
		}
		if (index === 1_100) {
			made.push({ v: 1, type: "leaf", sessionId, timestamp, leafId: "m1099" });
			continue;
		}
		const callId = `call-${index - 1}`;
		const message =
			index % 3 === 0
				? { role: "user", content: `question ${index} ${tag} ${"x".repeat(index % 50)}`, timestamp }
				: index % 3 === 1
					? {
							role: "assistant",
							content: [
								{ type: "text", text: `answer ${index} ${tag}` },
								{ type: "toolCall", id: `call-${index}`, name: "echo", arguments: { index } },
							],
							api: "anthropic-messages",
							provider: "anthropic",
							model: "test",
							usage: {
								input: 1,
								output: 1,
								cacheRead: 0,
								cacheWrite: 0,
								totalTokens: 2,
								cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
							},
							stopReason: "toolUse",
							timestamp,
						}
					: {
							role: "toolResult",
							toolCallId: callId,
							toolName: "echo",
							content: [{ type: "text", text: `result ${index} ${tag}` }],
							isError: false,
							timestamp,
						};
		made.push({ ...base, parentId, message } as SessionMessageRecord);
	}
	return made;
}

/** What scanOutlines hands over, as comparable values. */
async function outlineScan(store: PostgresTranscriptStore, fullFrom?: number, sessionId = SESSION): Promise<unknown[]> {
	const visits: unknown[] = [];
	const problems = await store.scanOutlines(
		sessionId,
		(record: ParsedSessionRecord, lineNumber, position, outlined, bytes) => {
			visits.push([lineNumber, position, outlined, bytes, record]);
		},
		fullFrom,
	);
	return [visits, problems];
}

/** What a load: "context" open gives: its leaf, branches and model context, and then the whole branch. */
async function openedContext(store: PostgresTranscriptStore, sessionId = SESSION): Promise<unknown> {
	const session = await Session.open(store, sessionId, { load: "context" });
	try {
		const opened = {
			leafId: session.leafId,
			branches: session.branches(),
			modelContext: session.modelContext(),
			problems: session.problems,
		};
		await session.loadBranch(session.leafId);
		return { ...opened, branch: session.branch() };
	} finally {
		await session.close();
	}
}

describe("PostgreSQL outline pages", () => {
	let schema: string;
	let store: PostgresTranscriptStore;
	const sql = (text: string, values: unknown[] = []) =>
		withAdmin((client) => client.query(text.replaceAll("$schema", schema), values));
	const pageRanges = async (tenant = "default") =>
		(
			await sql(
				"SELECT first_seq::int, last_seq::int FROM $schema.keel_outline_pages WHERE tenant = $1 AND session_id = $2 ORDER BY first_seq",
				[tenant, SESSION],
			)
		).rows.map((row) => [row.first_seq, row.last_seq]);

	beforeEach(async () => {
		schema = await createTestSchema();
		store = await createPostgresTranscriptStore({ connectionString: POSTGRES_URL, schema });
	});
	afterEach(async () => {
		await store.close();
		await dropTestSchema(schema);
	});

	/** Writes 1,300 records after the header, in appends of `size`; the writer is left open when `keepOpen`. */
	async function writeSession(size = 97, keepOpen = false) {
		const writer = await store.openWriter(SESSION, { create: header() as never });
		const all = records(0, 1_300);
		for (let from = 0; from < all.length; from += size) await writer.append(all.slice(from, from + size));
		if (!keepOpen) await writer.close();
		return writer;
	}

	it("are written as appends fill them, contiguous from the header, and read back as what the record rows give", async () => {
		await writeSession();
		// 1,301 records: two full pages; the rest is read from the rows.
		expect(await pageRanges()).toEqual([
			[1, OUTLINE_PAGE_RECORDS],
			[OUTLINE_PAGE_RECORDS + 1, 2 * OUTLINE_PAGE_RECORDS],
		]);
		const throughPages = [await outlineScan(store), await outlineScan(store, 902), await outlineScan(store, 600)];
		const opened = await openedContext(store);
		await sql("DELETE FROM $schema.keel_outline_pages");
		// A reader with no pages reads every record row.
		expect([await outlineScan(store), await outlineScan(store, 902), await outlineScan(store, 600)]).toEqual(
			throughPages,
		);
		expect(await openedContext(store)).toEqual(opened);
	});

	it("resume exactly when they stop short, and the next writer pages from the first record no page covers", async () => {
		const abandoned = await writeSession(97, true);
		const expected = await outlineScan(store);
		await sql("DELETE FROM $schema.keel_outline_pages WHERE first_seq > 1");
		expect(await pageRanges()).toEqual([[1, OUTLINE_PAGE_RECORDS]]);
		expect(await outlineScan(store)).toEqual(expected);
		// Like a writer killed mid-session: its lease is taken over and its pending outlines are gone.
		const next = await store.openWriter(SESSION, { takeOver: true });
		expect(await pageRanges()).toEqual([
			[1, OUTLINE_PAGE_RECORDS],
			[OUTLINE_PAGE_RECORDS + 1, 2 * OUTLINE_PAGE_RECORDS],
		]);
		await next.append(records(1_300, 1_600));
		await next.close();
		await abandoned.close().catch(() => {});
		expect(await pageRanges()).toEqual([
			[1, OUTLINE_PAGE_RECORDS],
			[OUTLINE_PAGE_RECORDS + 1, 2 * OUTLINE_PAGE_RECORDS],
			[2 * OUTLINE_PAGE_RECORDS + 1, 3 * OUTLINE_PAGE_RECORDS],
		]);
		const throughPages = await outlineScan(store);
		await sql("DELETE FROM $schema.keel_outline_pages");
		expect(await outlineScan(store)).toEqual(throughPages);
	});

	it("resume exactly after a writer process is killed mid-append, and the next writer pages its tail", async () => {
		// The conformance suite's child: appends batches of 50 small messages until killed.
		const child = spawn(
			process.execPath,
			[
				"--import",
				"tsx",
				fileURLToPath(new URL("../../agent/test/transcript-store-child.ts", import.meta.url)),
				fileURLToPath(new URL("./postgres-child-store.ts", import.meta.url)),
				JSON.stringify({ connectionString: POSTGRES_URL, schema }),
				"append-forever",
				SESSION,
			],
			{
				env: {
					...process.env,
					TSX_TSCONFIG_PATH: fileURLToPath(new URL("../tsconfig.json", import.meta.url)),
					RECORD_BYTES: "100",
					BATCH: "50",
				},
				stdio: ["ignore", "pipe", "inherit"],
			},
		);
		let output = "";
		child.stdout.setEncoding("utf8");
		const exited = once(child, "exit");
		await new Promise<void>((resolve) => {
			child.stdout.on("data", (chunk: string) => {
				output += chunk;
				if (output.includes("appended 1349\n")) resolve();
			});
		});
		child.kill("SIGKILL");
		await exited;
		const killedAt = await pageRanges();
		expect(killedAt.slice(0, 2)).toEqual([
			[1, OUTLINE_PAGE_RECORDS],
			[OUTLINE_PAGE_RECORDS + 1, 2 * OUTLINE_PAGE_RECORDS],
		]);
		const expected = await outlineScan(store);
		await sql("CREATE TABLE $schema.saved_pages AS SELECT * FROM $schema.keel_outline_pages");
		await sql("DELETE FROM $schema.keel_outline_pages");
		expect(await outlineScan(store)).toEqual(expected);
		await sql("INSERT INTO $schema.keel_outline_pages SELECT * FROM $schema.saved_pages");

		// The lease belonged to a process that is gone: the next writer takes it and pages the tail.
		const { rows } = await sql("SELECT last_seq::int FROM $schema.keel_sessions");
		const lastSeq: number = rows[0].last_seq;
		const writer = await store.openWriter(SESSION);
		const full = Math.floor(lastSeq / OUTLINE_PAGE_RECORDS);
		expect(await pageRanges()).toEqual(
			Array.from({ length: full }, (_, page) => [page * OUTLINE_PAGE_RECORDS + 1, (page + 1) * OUTLINE_PAGE_RECORDS]),
		);
		const tail = records(0, OUTLINE_PAGE_RECORDS).map((record, index) =>
			record.type === "message"
				? { ...record, id: `after${index}`, parentId: index === 0 ? null : `after${index - 1}` }
				: record,
		);
		await writer.append(tail);
		await writer.close();
		expect((await pageRanges()).at(-1)).toEqual([full * OUTLINE_PAGE_RECORDS + 1, (full + 1) * OUTLINE_PAGE_RECORDS]);
		const throughPages = await outlineScan(store);
		await sql("DELETE FROM $schema.keel_outline_pages");
		expect(await outlineScan(store)).toEqual(throughPages);
	});

	it("ignore a garbled page and read its records from their rows", async () => {
		await writeSession();
		const expected = await outlineScan(store);
		const opened = await openedContext(store);
		await sql("CREATE TABLE $schema.saved_pages AS SELECT * FROM $schema.keel_outline_pages");
		const garble = async (column: "outlines" | "sizes", value: string) => {
			await sql("DELETE FROM $schema.keel_outline_pages");
			await sql("INSERT INTO $schema.keel_outline_pages SELECT * FROM $schema.saved_pages");
			await sql(`UPDATE $schema.keel_outline_pages SET ${column} = $1 WHERE first_seq = 1`, [value]);
		};
		const notOutlines = `[${Array(OUTLINE_PAGE_RECORDS).fill('{"type":"message"}').join(",")}]`;
		for (const outlines of ["[{", "[]", '[{"type":"message"}]', "null", notOutlines]) {
			await garble("outlines", outlines);
			expect(await outlineScan(store)).toEqual(expected);
		}
		await garble("sizes", "{1,2}");
		expect(await outlineScan(store)).toEqual(expected);
		expect(await openedContext(store)).toEqual(opened);
	});

	it("are not written by a fenced writer", async () => {
		const fenced = await store.openWriter(SESSION, { create: header() as never });
		await fenced.append(records(0, 400));
		const winner = await store.openWriter(SESSION, { takeOver: true });
		// This append would fill the first page; it is refused whole, page included.
		await expect(fenced.append(records(400, 700))).rejects.toThrow(/lease was taken/);
		expect(await pageRanges()).toEqual([]);
		await winner.append(records(400, 600));
		await winner.close();
		expect(await pageRanges()).toEqual([[1, OUTLINE_PAGE_RECORDS]]);
		const throughPages = await outlineScan(store);
		await sql("DELETE FROM $schema.keel_outline_pages");
		expect(await outlineScan(store)).toEqual(throughPages);
	});

	it("stay right after an append the server refuses: the writer reads back what it holds before the next", async () => {
		const writer = await store.openWriter(SESSION, { create: header() as never });
		await writer.append(records(0, 300));
		await sql(`CREATE FUNCTION $schema.refuse() RETURNS trigger LANGUAGE plpgsql AS $$
			BEGIN IF NEW.line LIKE '%"m350"%' THEN RAISE EXCEPTION 'refused for the test'; END IF; RETURN NEW; END $$;
			CREATE TRIGGER refuse BEFORE INSERT ON $schema.keel_records FOR EACH ROW EXECUTE FUNCTION $schema.refuse()`);
		await expect(writer.append(records(300, 600))).rejects.toThrow(/refused for the test/);
		await sql("DROP TRIGGER refuse ON $schema.keel_records");
		// Appended again, now that it is accepted; then more, filling a second page.
		await writer.append(records(300, 600));
		await writer.append(records(600, 1_100));
		await writer.close();
		expect(await pageRanges()).toEqual([
			[1, OUTLINE_PAGE_RECORDS],
			[OUTLINE_PAGE_RECORDS + 1, 2 * OUTLINE_PAGE_RECORDS],
		]);
		const throughPages = await outlineScan(store);
		await sql("DELETE FROM $schema.keel_outline_pages");
		expect(await outlineScan(store)).toEqual(throughPages);
	});

	it("are made for a session written before they existed, by the first writer to open it", async () => {
		const old = store;
		const writer = await old.openWriter(SESSION, { create: header() as never });
		await writer.append(records(0, 1_300));
		await writer.close();
		const expected = await outlineScan(old);
		const opened = await openedContext(old);
		await old.close();
		// What version 4 has: the same records, their outline column, and no pages.
		await sql("DROP TABLE $schema.keel_outline_pages; UPDATE $schema.keel_schema_version SET version = 4");

		store = await createPostgresTranscriptStore({ connectionString: POSTGRES_URL, schema });
		expect(await pageRanges()).toEqual([]);
		expect(await outlineScan(store)).toEqual(expected);
		expect((await store.read(SESSION)).records).toHaveLength(1_301);
		expect(await openedContext(store)).toEqual(opened);
		// That open took the writer: its records are paged now.
		expect(await pageRanges()).toEqual([
			[1, OUTLINE_PAGE_RECORDS],
			[OUTLINE_PAGE_RECORDS + 1, 2 * OUTLINE_PAGE_RECORDS],
		]);
		expect(await outlineScan(store)).toEqual(expected);
	});

	it("belong to their tenant: another tenant's session of the same id reads its own, and deleting one leaves the other's", async () => {
		const other = store.forTenant("other");
		for (const [owner, tag] of [
			[store, "mine"],
			[other, "theirs"],
		] as const) {
			const writer = await owner.openWriter(SESSION, { create: header() as never });
			await writer.append(records(0, 1_100, SESSION, tag));
			await writer.close();
		}
		expect(await pageRanges("default")).toHaveLength(2);
		expect(await pageRanges("other")).toHaveLength(2);
		const mine = await outlineScan(store);
		const theirs = await outlineScan(other);
		expect(JSON.stringify(mine)).toContain("Title mine");
		expect(JSON.stringify(theirs)).toContain("Title theirs");
		expect(JSON.stringify(theirs)).not.toContain("mine");
		await store.delete(SESSION);
		expect(await pageRanges("default")).toEqual([]);
		expect(await outlineScan(other)).toEqual(theirs);
		await sql("DELETE FROM $schema.keel_outline_pages");
		expect(await outlineScan(other)).toEqual(theirs);
	});
});
