// PostgreSQL restarted under a load of real agent server processes: two instances share a cluster of
// the test's own (never the shared server, which other work uses), several sessions take turns on
// them, alternating, and the cluster is restarted with `pg_ctl restart -m fast` in the middle. The
// turns in flight end with an error naming the lost database; the instances, not restarted, serve
// the next turns; every acknowledged turn is stored once, in order, and nothing is half-written.
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
	findPostgresBin,
	type PrivateCluster,
	startPrivateCluster,
} from "../../packages/session-postgres/test/private-postgres-cluster.js";

const serverScript = fileURLToPath(new URL("./agent-server.mjs", import.meta.url));
const bin = findPostgresBin();
const SESSIONS = 4;
const TURNS_BEFORE_RESTART = 3;
/** Short, so a session whose lease its instance could not release is free again soon after the restart, retries or not. */
const LEASE_MS = 2_000;

interface Instance {
	name: string;
	url: string;
	child: ChildProcess;
	/** What the process wrote to stderr so far (why it ended, if it did). */
	stderr(): string;
}

async function startInstance(name: string, connectionString: string): Promise<Instance> {
	const child = spawn(process.execPath, [serverScript], {
		env: {
			...process.env,
			KEEL_PG_URL: connectionString,
			KEEL_PG_SCHEMA: "public",
			KEEL_DEPLOY_LOG: "/dev/null",
			KEEL_INSTANCE: name,
			KEEL_LEASE_MS: String(LEASE_MS),
		},
		stdio: ["ignore", "pipe", "pipe"],
	});
	let output = "";
	let errors = "";
	child.stderr!.setEncoding("utf8").on("data", (text: string) => {
		errors += text;
	});
	const port = await new Promise<string>((resolve, reject) => {
		child.stdout!.setEncoding("utf8").on("data", (text: string) => {
			output += text;
			const match = /listening (\d+)/.exec(output);
			if (match) resolve(match[1]);
		});
		child.once("exit", () => reject(new Error(`instance ${name} exited before listening: ${errors}`)));
	});
	return { name, url: `http://127.0.0.1:${port}`, child, stderr: () => errors };
}

type Turn = { ok: true; messages: string[] } | { ok: false; status: number; error: string };

async function turn(instance: Instance, sessionId: string, text: string): Promise<Turn> {
	const response = await fetch(`${instance.url}/turn`, {
		method: "POST",
		body: JSON.stringify({ sessionId, text }),
	}).catch((error: unknown) => error as Error);
	// The instance itself gone: reported, and the check that both instances still run says why.
	if (response instanceof Error) return { ok: false, status: 0, error: String(response.cause ?? response) };
	const json = (await response.json()) as { error?: string; messages?: { role: string; text: string }[] };
	if (response.status !== 200) return { ok: false, status: response.status, error: json.error ?? "" };
	return { ok: true, messages: (json.messages ?? []).map((message) => `${message.role}: ${message.text}`) };
}

describe.skipIf(!bin)(
	`agent server instances when PostgreSQL restarts under load${bin ? "" : " (skipped: initdb not found under /usr/lib/postgresql)"}`,
	() => {
		let cluster: PrivateCluster | undefined;
		const instances: Instance[] = [];

		beforeAll(async () => {
			cluster = await startPrivateCluster(bin as string);
		}, 300_000);

		afterAll(async () => {
			for (const instance of instances.splice(0)) {
				if (instance.child.exitCode === null && instance.child.signalCode === null) {
					const exited = new Promise((resolve) => instance.child.once("exit", resolve));
					instance.child.kill("SIGTERM");
					await exited;
				}
			}
			await cluster?.destroy();
		}, 300_000);

		it("ends the turns in flight with an error naming the database, then serves every session again without a restart of its own", async () => {
			const { connectionString, restart } = cluster as PrivateCluster;
			instances.push(
				...(await Promise.all([startInstance("A", connectionString), startInstance("B", connectionString)])),
			);
			const [a, b] = instances;
			const acknowledged: string[][] = Array.from({ length: SESSIONS }, () => []);
			const failures: { status: number; error: string }[] = [];
			let restarted = false;
			let signalWarm: () => void = () => {};
			const warm = new Promise<void>((resolve) => {
				signalWarm = resolve;
			});
			const loops = acknowledged.map(async (texts, index) => {
				for (let n = 0; !restarted; n++) {
					const text = `s${index}-t${n}`;
					const result = await turn(n % 2 === 0 ? a : b, `session-${index}`, text);
					if (!result.ok) {
						failures.push(result);
						return;
					}
					texts.push(text);
					if (acknowledged.every((each) => each.length >= TURNS_BEFORE_RESTART)) signalWarm();
				}
			});
			await warm;
			await restart();
			restarted = true;
			await Promise.all(loops);

			// Neither instance went down with the database (a connection dropped between two statements
			// of a transaction once ended the process with an unhandled "error" event).
			for (const instance of instances) {
				expect({ name: instance.name, exitCode: instance.child.exitCode, stderr: instance.stderr() }).toEqual({
					name: instance.name,
					exitCode: null,
					stderr: "",
				});
			}

			// The turns in flight (and those that came while the server was down) failed with an error
			// naming the server and the lost connection, never a bare driver message.
			expect(failures.length).toBeGreaterThan(0);
			for (const failure of failures) {
				expect(failure.status).toBe(500);
				// (Inside "Session … can no longer be written: …" when an earlier write of the turn failed first.)
				expect(failure.error).toMatch(/Lost the connection to PostgreSQL at 127\.0\.0\.1:\d+ /);
			}

			// Both instances, not restarted, serve every session again. A session whose turn was cut off
			// keeps that instance's lease, which it could not release while the server was down: that
			// instance takes it again at once, the other is refused as locked (and asks again) until
			// the store's background release goes through or the lease runs out (KEEL_LEASE_MS).
			const turnOnceUnlocked = async (instance: Instance, sessionId: string, text: string) => {
				for (;;) {
					const result = await turn(instance, sessionId, text);
					if (result.ok || !/is locked by process/.test(result.error)) return result;
					await new Promise((resolve) => setTimeout(resolve, 100));
				}
			};
			for (const [index, texts] of acknowledged.entries()) {
				const sessionId = `session-${index}`;
				expect((await turnOnceUnlocked(a, sessionId, `s${index}-after-a`)).ok).toBe(true);
				const last = await turnOnceUnlocked(b, sessionId, `s${index}-after-b`);
				if (!last.ok) throw new Error(`${sessionId} after the restart: ${last.status} ${last.error}`);

				// Nothing half-written, nothing lost: every acknowledged turn once, in order, with its
				// answer; the turn cut off is there with its answer or without, or not at all.
				const users = last.messages.filter((line) => line.startsWith("user: ")).map((line) => line.slice(6));
				const cutOff = users.filter((text) => !texts.includes(text) && !text.includes("-after-"));
				expect(cutOff.length).toBeLessThanOrEqual(1);
				expect(users).toEqual([...texts, ...cutOff, `s${index}-after-a`, `s${index}-after-b`]);
				for (const text of [...texts, `s${index}-after-a`, `s${index}-after-b`]) {
					const at = last.messages.indexOf(`user: ${text}`);
					expect(last.messages[at + 1]).toBe(`assistant: echo: ${text}`);
				}
			}
		}, 300_000);
	},
);
