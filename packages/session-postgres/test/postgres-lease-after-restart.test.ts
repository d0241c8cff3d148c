// A writer closed while PostgreSQL is down (a restart, a cut network) cannot release its lease then.
// Its close still resolves; the same store's next openWriter of the session takes the lease at once
// instead of waiting out `leaseMs`, moving the token on; and the release is retried once the server
// is back, so other instances get the session without waiting either. Run against a cluster of the
// test's own (never the shared server), stopped and started with pg_ctl.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { header, userRecord } from "../../agent/test/session-fixtures.js";
import { createPostgresTranscriptStore, type PostgresTranscriptStore } from "../src/index.js";
import { findPostgresBin, type PrivateCluster, startPrivateCluster } from "./private-postgres-cluster.js";

const bin = findPostgresBin();
/** Long enough that, before this behaviour, every open below would have been refused as locked. */
const LEASE_MS = 120_000;

async function sessionRow(
	connectionString: string,
	sessionId: string,
): Promise<{ writer_token: string; writer_holder: string | null }> {
	const client = new pg.Client({ connectionString });
	await client.connect();
	try {
		const { rows } = await client.query("SELECT writer_token, writer_holder FROM keel_sessions WHERE session_id = $1", [
			sessionId,
		]);
		return rows[0];
	} finally {
		await client.end();
	}
}

describe.skipIf(!bin)(
	`a PostgreSQL writer closed while the server is down${bin ? "" : " (skipped: initdb not found under /usr/lib/postgresql)"}`,
	() => {
		let cluster: PrivateCluster;
		const stores: PostgresTranscriptStore[] = [];

		beforeAll(async () => {
			cluster = await startPrivateCluster(bin as string);
		}, 300_000);

		afterAll(async () => {
			for (const store of stores.splice(0)) await store.close();
			await cluster?.destroy();
		}, 300_000);

		const openStore = async () => {
			const store = await createPostgresTranscriptStore({
				connectionString: cluster.connectionString,
				leaseMs: LEASE_MS,
			});
			stores.push(store);
			return store;
		};

		/**
		 * Opens `sessionId` on `store` with one message, then closes its writer while the server is
		 * down. `retries: false` holds back the background release (its timer is a fake one, dropped),
		 * so what follows can only succeed through the closed writer this store remembers.
		 */
		async function closeWhileDown(
			store: PostgresTranscriptStore,
			sessionId: string,
			{ retries }: { retries: boolean },
		): Promise<void> {
			const writer = await store.openWriter(sessionId, { create: header(sessionId) });
			await writer.append(userRecord(sessionId, "u1", null, "before"));
			await cluster.stop();
			try {
				if (!retries) vi.useFakeTimers({ toFake: ["setTimeout"] });
				await expect(writer.close()).resolves.toBeUndefined();
			} finally {
				vi.useRealTimers();
				await cluster.start();
			}
			// The old writer is closed for good: nothing more from it reaches the session.
			await expect(writer.append(userRecord(sessionId, "late", "u1", "late"))).rejects.toThrow(/is closed/);
		}

		it("lets the same store's next openWriter take the session at once, moving the token on, while others still see it held", async () => {
			const store = await openStore();
			const other = await openStore();
			await closeWhileDown(store, "own", { retries: false });
			const left = await sessionRow(cluster.connectionString, "own");
			expect(Number(left.writer_token)).toBe(1);
			expect(left.writer_holder).not.toBeNull();

			const writer = await store.openWriter("own");
			expect(Number((await sessionRow(cluster.connectionString, "own")).writer_token)).toBe(2);
			await writer.append(userRecord("own", "u2", "u1", "after"));
			// The new writer's lease is live and its own: another store's open is refused.
			await expect(other.openWriter("own")).rejects.toThrow(/is locked/);
			await writer.close();

			const { records, problems } = await store.read("own");
			expect(problems).toEqual([]);
			expect(records.map((record) => (record as { id?: string }).id ?? record.type)).toEqual(["session", "u1", "u2"]);
		}, 300_000);

		it("releases the lease once the server is back, so another store's openWriter gets the session without waiting out the lease", async () => {
			const store = await openStore();
			const other = await openStore();
			await closeWhileDown(store, "released", { retries: true });

			await vi.waitFor(
				async () => expect((await sessionRow(cluster.connectionString, "released")).writer_holder).toBeNull(),
				{ timeout: 60_000, interval: 100 },
			);
			const writer = await other.openWriter("released");
			await writer.append(userRecord("released", "u2", "u1", "after"));
			await writer.close();
			expect((await other.read("released")).records).toHaveLength(3);
		}, 300_000);
	},
);
