// Many conversations across two agent server instances (real processes, agent-server.mjs) sharing
// one PostgreSQL schema: each session's turns alternate between the instances, many sessions at
// once; then the transcripts are read back from PostgreSQL and every message is accounted for —
// none lost, none duplicated, none out of order. Used by tests/deployment/multi-instance-load.test.ts
// (a small load) and `pnpm bench multi-instance-load` (1,000 sessions × 20 turns). Needs the built
// packages (agent-server.mjs imports them by name).
import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const serverScript = fileURLToPath(new URL("./agent-server.mjs", import.meta.url));
const pg = createRequire(new URL("../../packages/session-postgres/package.json", import.meta.url))(
	"pg",
) as typeof import("pg");

export interface LoadOptions {
	postgresUrl: string;
	/** An existing, empty schema; the caller creates and drops it. */
	schema: string;
	sessions: number;
	turns: number;
	/** Sessions in conversation at once. */
	concurrency: number;
}

export interface LoadResult {
	turns: number;
	ms: number;
	turnsPerSecond: number;
	/** Turns served by each instance. */
	served: Record<string, number>;
	/** Turns whose response was not the conversation so far plus this turn's two messages. */
	badResponses: number;
	/** Read back from PostgreSQL. */
	sessionsStored: number;
	messagesStored: number;
	lost: number;
	duplicated: number;
	outOfOrder: number;
}

interface Instance {
	name: string;
	url: string;
	child: ChildProcess;
}

async function startInstance(name: string, options: LoadOptions): Promise<Instance> {
	const child = spawn(process.execPath, [serverScript], {
		env: {
			...process.env,
			KEEL_PG_URL: options.postgresUrl,
			KEEL_PG_SCHEMA: options.schema,
			KEEL_DEPLOY_LOG: "/dev/null",
			KEEL_INSTANCE: name,
		},
		stdio: ["ignore", "pipe", "pipe"],
	});
	let errors = "";
	child.stderr?.setEncoding("utf8").on("data", (text: string) => {
		errors += text;
	});
	const port = await new Promise<string>((resolve, reject) => {
		let output = "";
		child.stdout?.setEncoding("utf8").on("data", (text: string) => {
			output += text;
			const match = /listening (\d+)/.exec(output);
			if (match) resolve(match[1]);
		});
		child.once("exit", () => reject(new Error(`instance ${name} exited before listening: ${errors}`)));
	});
	return { name, url: `http://127.0.0.1:${port}`, child };
}

async function stopInstance(instance: Instance): Promise<void> {
	if (instance.child.exitCode !== null || instance.child.signalCode !== null) return;
	const exited = new Promise((resolve) => instance.child.once("exit", resolve));
	instance.child.kill("SIGTERM");
	await exited;
}

interface TurnResponse {
	instance: string;
	messages: { role: string; text: string }[];
}

const userText = (turn: number) => `turn ${turn}`;

/** Runs the load, then accounts for every message from PostgreSQL. */
export async function runMultiInstanceLoad(options: LoadOptions): Promise<LoadResult> {
	const instances = await Promise.all([startInstance("A", options), startInstance("B", options)]);
	const served: Record<string, number> = { A: 0, B: 0 };
	let badResponses = 0;
	let ms: number;
	try {
		let next = 0;
		const start = performance.now();
		const worker = async () => {
			for (let index = next++; index < options.sessions; index = next++) {
				const sessionId = `load-${index}`;
				for (let turn = 0; turn < options.turns; turn++) {
					// Turn by turn the session moves between instances: neither keeps anything of it.
					const instance = instances[(index + turn) % 2];
					const response = await fetch(`${instance.url}/turn`, {
						method: "POST",
						body: JSON.stringify({ sessionId, text: userText(turn) }),
					});
					const body = (await response.json()) as TurnResponse & { error?: string };
					if (response.status !== 200) throw new Error(`${instance.name} /turn ${sessionId} ${turn}: ${body.error}`);
					served[body.instance] = (served[body.instance] ?? 0) + 1;
					const last = body.messages.slice(-2).map((message) => `${message.role}: ${message.text}`);
					if (
						body.messages.length !== 2 * (turn + 1) ||
						last[0] !== `user: ${userText(turn)}` ||
						last[1] !== `assistant: echo: ${userText(turn)}`
					) {
						badResponses++;
					}
				}
			}
		};
		await Promise.all(Array.from({ length: options.concurrency }, worker));
		ms = performance.now() - start;
	} finally {
		await Promise.all(instances.map(stopInstance));
	}
	const turns = options.sessions * options.turns;
	return {
		turns,
		ms,
		turnsPerSecond: Math.round((turns / ms) * 1000),
		served,
		badResponses,
		...(await accountForMessages(options)),
	};
}

/** Compares every session's stored messages with the conversation the load had. */
async function accountForMessages(options: LoadOptions) {
	const client = new pg.Client({ connectionString: options.postgresUrl });
	await client.connect();
	try {
		const { rows } = await client.query<{ session_id: string; messages: string[] }>(
			`SELECT session_id,
				array_agg(role || ' ' || coalesce(substring(line from '"text":"(?:echo: )?(turn [0-9]+)"'), '?') ORDER BY seq) AS messages
			FROM ${client.escapeIdentifier(options.schema)}.keel_records
			WHERE tenant = 'default' AND role IS NOT NULL GROUP BY session_id`,
		);
		let lost = 0;
		let duplicated = 0;
		let outOfOrder = 0;
		let messagesStored = 0;
		const stored = new Map(rows.map((row) => [row.session_id, row.messages]));
		for (let index = 0; index < options.sessions; index++) {
			const expected = Array.from({ length: options.turns }, (_, turn) => [
				`user ${userText(turn)}`,
				`assistant ${userText(turn)}`,
			]).flat();
			const actual = stored.get(`load-${index}`) ?? [];
			messagesStored += actual.length;
			const counts = new Map<string, number>();
			for (const message of expected) counts.set(message, (counts.get(message) ?? 0) + 1);
			for (const message of actual) counts.set(message, (counts.get(message) ?? 0) - 1);
			for (const count of counts.values()) {
				if (count > 0) lost += count;
				else duplicated -= count;
			}
			if (actual.join("\n") !== expected.join("\n") && [...counts.values()].every((count) => count === 0)) outOfOrder++;
		}
		return { sessionsStored: stored.size, messagesStored, lost, duplicated, outOfOrder };
	} finally {
		await client.end();
	}
}
