// Connecting: a pool from a connection string (or the application's own pool), a first connection
// made at once so that a wrong address, wrong credentials, a missing database or schema fail when
// the store is created, each with an error that says which and what to do — and never the password.

import { type DatabaseError, Pool, type PoolClient, type PoolConfig } from "pg";
import { PostgresTranscriptStoreError } from "./postgres-errors.js";

/** Where a connection goes, for messages: host, port, database and user, no password. */
export function describeTarget(config: PoolConfig): string {
	let { host, port, database, user } = config;
	if (config.connectionString) {
		try {
			const url = new URL(config.connectionString);
			host ??= decodeURIComponent(url.hostname) || undefined;
			port ??= url.port ? Number(url.port) : undefined;
			database ??= decodeURIComponent(url.pathname.replace(/^\//, "")) || undefined;
			user ??= decodeURIComponent(url.username) || undefined;
		} catch {
			// Not a URL (a key=value string): described by what the options name.
		}
	}
	return `PostgreSQL at ${host ?? "localhost"}:${port ?? 5432} (database "${database ?? user ?? "?"}", user "${user ?? "?"}")`;
}

export function createPool(config: PoolConfig): Pool {
	const pool = new Pool({ connectionTimeoutMillis: 5_000, max: 10, ...config });
	// An idle connection the server dropped (a restart) is reported here; without a listener Node
	// would end the process. The pool replaces it, and the next query reports any lasting failure.
	pool.on("error", () => {});
	return pool;
}

/**
 * Takes a client from the pool for a transaction, with a listener for its "error" event. The pool
 * listens for that event only while a client is idle in it, and `pool.query` while its query runs;
 * a client held between two statements of a transaction has none, and when the server goes away
 * then (a restart) Node would end the whole process over the unhandled event. The statement sent
 * next on that client fails instead, and says so; the pool drops the client when it is released.
 */
export async function checkOut(pool: Pool): Promise<PoolClient> {
	const client = await pool.connect();
	if (!client.listeners("error").includes(ignoreHeldClientError)) client.on("error", ignoreHeldClientError);
	return client;
}

function ignoreHeldClientError(): void {}

/** Connects once, turning the server's refusals into PostgresTranscriptStoreErrors that name the cause. */
export async function connectFirst(pool: Pool, target: string): Promise<PoolClient> {
	try {
		return await checkOut(pool);
	} catch (error) {
		throw describeConnectionError(error, target);
	}
}

export function describeConnectionError(error: unknown, target: string): Error {
	const code = (error as { code?: string }).code;
	const detail = (error as Error).message;
	if (code === "28P01" || code === "28000") {
		return new PostgresTranscriptStoreError(
			`${target} refused the credentials (${detail}): check the user name and password of the connection string.`,
			"credentials",
			error,
		);
	}
	if (code === "3D000") {
		return new PostgresTranscriptStoreError(
			`${target}: ${detail}. Create the database first (CREATE DATABASE) or name an existing one.`,
			"missing-database",
			error,
		);
	}
	if (
		code === "ECONNREFUSED" ||
		code === "ENOTFOUND" ||
		code === "EHOSTUNREACH" ||
		code === "ETIMEDOUT" ||
		/timeout|terminated/i.test(detail)
	) {
		return new PostgresTranscriptStoreError(
			`Cannot connect to ${target}: ${detail || code}. Check that the server is running and the host and port are right.`,
			"unreachable",
			error,
		);
	}
	if ((error as DatabaseError).severity !== undefined) {
		return new PostgresTranscriptStoreError(`${target}: ${detail}`, "server", error);
	}
	return error instanceof Error ? error : new Error(String(error));
}

/** Refuses a schema that does not exist: the store creates its tables, not the schema (whose owner and grants are the application's). */
export async function assertSchemaExists(client: PoolClient, schema: string, target: string): Promise<void> {
	const { rowCount } = await client.query("SELECT 1 FROM pg_namespace WHERE nspname = $1", [schema]);
	if (rowCount === 0) {
		throw new PostgresTranscriptStoreError(
			`Schema "${schema}" does not exist in ${target}: create it first (CREATE SCHEMA "${schema}") or pass an existing schema.`,
			"missing-schema",
		);
	}
}

/** SQLSTATE disk_full: the server could not extend a file (https://www.postgresql.org/docs/current/errcodes-appendix.html). */
const DISK_FULL = "53100";

/** SQLSTATEs of a server going away under a session: shut down, crashed, or not yet accepting connections. */
const SERVER_GONE_CODES = new Set(["57P01", "57P02", "57P03", "08000", "08003", "08006"]);
const SOCKET_GONE_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "ENOTFOUND"]);

/** Whether an error means the connection to the server was lost or could not be made (a restart). */
export function isConnectionLost(error: unknown): boolean {
	const code = (error as { code?: unknown }).code;
	if (typeof code === "string" && (SERVER_GONE_CODES.has(code) || SOCKET_GONE_CODES.has(code))) return true;
	const message = (error as { message?: unknown }).message;
	return (
		typeof message === "string" &&
		/Connection terminated|connection error|not queryable|timeout exceeded when trying to connect/i.test(message)
	);
}

/**
 * An append that failed because the server went away (restarted, crashed, unreachable) or ran out
 * of disk space as a PostgresTranscriptStoreError naming that cause; other errors unchanged. Lost
 * connection: the statement was not acknowledged; PostgreSQL commits it whole or not at all, so the
 * session holds either all of its records or none, and the pool connects again on the next call.
 * Disk full: the server refused the statement, so nothing of it was stored.
 */
export function describeFailedAppend(error: unknown, target: string, sessionId: string): unknown {
	if ((error as { code?: unknown }).code === DISK_FULL) {
		return new PostgresTranscriptStoreError(
			`${target} is out of disk space (${(error as Error).message}) while appending to session "${sessionId}": nothing of the append was stored. Free space on the database server and append again.`,
			"disk-full",
			error,
		);
	}
	if (!isConnectionLost(error)) return error;
	return new PostgresTranscriptStoreError(
		`Lost the connection to ${target} while appending to session "${sessionId}" (${(error as Error).message}): the append was not acknowledged; PostgreSQL stored all of it or none of it (reopen the session to see which). The store connects again on the next call.`,
		"connection-lost",
		error,
	);
}

/**
 * A store call other than an append (open, read, list, delete, close) whose connection was lost or
 * could not be made (the server restarting, crashed, unreachable) as a PostgresTranscriptStoreError
 * of reason "connection-lost" naming the server and the call; other errors unchanged. What the call
 * was changing (a lease, a deletion) is committed whole or not at all; the pool connects again on
 * the next call.
 */
export function describeFailedCall(error: unknown, target: string, call: string): unknown {
	if (!isConnectionLost(error)) return error;
	return new PostgresTranscriptStoreError(
		`Lost the connection to ${target} during ${call} (${(error as Error).message}): the call did not complete; PostgreSQL kept any change it made whole or not at all. The store connects again on the next call.`,
		"connection-lost",
		error,
	);
}
