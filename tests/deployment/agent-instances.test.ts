// Any instance serves any session: two real agent server processes share one PostgreSQL (a schema
// of its own per test, dropped afterwards) and keep no state of their own. A client alternates
// between them, one is killed with SIGKILL mid-run, and an approval asked on one is given on the other.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const POSTGRES_URL = process.env.KEEL_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const serverScript = fileURLToPath(new URL("./agent-server.mjs", import.meta.url));

interface Instance {
	name: string;
	url: string;
	child: ChildProcess;
	/** Resolves when the instance prints this line. */
	printed(line: string): Promise<void>;
}

interface TurnResult {
	instance: string;
	messages: { role: string; text: string }[];
	pendingApprovals: string[];
}

let schema: string;
let workDirectory: string;
let deployLog: string;
const instances: Instance[] = [];

function psql(sql: string): void {
	execFileSync("psql", [POSTGRES_URL, "-v", "ON_ERROR_STOP=1", "-q", "-c", sql], { stdio: "pipe" });
}

beforeEach(() => {
	schema = `keel_test_${randomUUID().replaceAll("-", "").slice(0, 16)}`;
	psql(`CREATE SCHEMA ${schema}`);
	workDirectory = mkdtempSync(join(tmpdir(), "keel-deployment-"));
	deployLog = join(workDirectory, "deploys.log");
	writeFileSync(deployLog, "");
});

afterEach(async () => {
	for (const instance of instances.splice(0)) {
		if (instance.child.exitCode === null && instance.child.signalCode === null) {
			const exited = new Promise((resolve) => instance.child.once("exit", resolve));
			instance.child.kill("SIGTERM");
			await exited;
		}
	}
	psql(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
	rmSync(workDirectory, { recursive: true, force: true });
});

async function startInstance(name: string): Promise<Instance> {
	const child = spawn(process.execPath, [serverScript], {
		env: {
			...process.env,
			KEEL_PG_URL: POSTGRES_URL,
			KEEL_PG_SCHEMA: schema,
			KEEL_DEPLOY_LOG: deployLog,
			KEEL_INSTANCE: name,
		},
		stdio: ["ignore", "pipe", "pipe"],
	});
	let output = "";
	let errors = "";
	const waiters: { line: string; resolve: () => void }[] = [];
	child.stdout!.setEncoding("utf8").on("data", (text: string) => {
		output += text;
		for (const waiter of waiters) if (output.includes(waiter.line)) waiter.resolve();
	});
	child.stderr!.setEncoding("utf8").on("data", (text: string) => {
		errors += text;
	});
	const printed = (line: string) =>
		new Promise<void>((resolve, reject) => {
			if (output.includes(line)) return resolve();
			waiters.push({ line, resolve });
			child.once("exit", () => reject(new Error(`instance ${name} exited before printing "${line}": ${errors}`)));
		});
	await printed("listening ");
	const port = /listening (\d+)/.exec(output)![1];
	const instance = { name, url: `http://127.0.0.1:${port}`, child, printed };
	instances.push(instance);
	return instance;
}

async function call(instance: Instance, path: string, body: unknown): Promise<TurnResult> {
	const response = await fetch(`${instance.url}${path}`, { method: "POST", body: JSON.stringify(body) });
	const json = await response.json();
	if (response.status !== 200) throw new Error(`${instance.name} ${path}: ${response.status} ${JSON.stringify(json)}`);
	return json as TurnResult;
}

const texts = (result: TurnResult) => result.messages.map((message) => `${message.role}: ${message.text}`);

describe("agent server instances sharing PostgreSQL", () => {
	it("serves a conversation whose turns alternate between two instances", async () => {
		const [a, b] = await Promise.all([startInstance("A"), startInstance("B")]);
		const sessionId = `alternating-${randomUUID()}`;
		const served: string[] = [];
		for (const [instance, text] of [
			[a, "one"],
			[b, "two"],
			[a, "three"],
			[b, "four"],
		] as const) {
			served.push((await call(instance, "/turn", { sessionId, text })).instance);
		}
		expect(served).toEqual(["A", "B", "A", "B"]);
		const final = await call(a, "/messages", { sessionId });
		expect(texts(final)).toEqual([
			"user: one",
			"assistant: echo: one",
			"user: two",
			"assistant: echo: two",
			"user: three",
			"assistant: echo: three",
			"user: four",
			"assistant: echo: four",
		]);
	});

	it("goes on with the conversation on another instance after one is killed mid-run, losing no acknowledged message", async () => {
		const [a, b] = await Promise.all([startInstance("A"), startInstance("B")]);
		const sessionId = `killed-${randomUUID()}`;
		await call(a, "/turn", { sessionId, text: "first" });
		await call(b, "/turn", { sessionId, text: "second" });
		// A takes the next turn and is killed while the model is answering it.
		const hanging = call(a, "/turn", { sessionId, text: "hang" }).catch((error: unknown) => error);
		await a.printed("model-called");
		const exited = new Promise((resolve) => a.child.once("exit", (_code, signal) => resolve(signal)));
		a.child.kill("SIGKILL");
		expect(await exited).toBe("SIGKILL");
		expect(await hanging).toBeInstanceOf(Error);

		const after = await call(b, "/turn", { sessionId, text: "after" });
		expect(after.instance).toBe("B");
		const conversation = texts(after);
		// Every acknowledged turn is there, in order; the killed turn's own message may or may not be.
		expect(conversation.slice(0, 4)).toEqual([
			"user: first",
			"assistant: echo: first",
			"user: second",
			"assistant: echo: second",
		]);
		expect(conversation.slice(-2)).toEqual(["user: after", "assistant: echo: after"]);
		expect(conversation.filter((line) => line.startsWith("assistant: echo: hang"))).toEqual([]);
	});

	it("runs a tool paused for approval on one instance exactly once when it is approved through the other", async () => {
		const [a, b] = await Promise.all([startInstance("A"), startInstance("B")]);
		const sessionId = `approval-${randomUUID()}`;
		const paused = await call(a, "/turn", { sessionId, text: "deploy" });
		expect(paused.pendingApprovals).toEqual(["call-deploy"]);
		expect(readFileSync(deployLog, "utf8")).toBe("");

		const approved = await call(b, "/approve", { sessionId, toolCallId: "call-deploy" });
		expect(approved.pendingApprovals).toEqual([]);
		expect(texts(approved).slice(-2)).toEqual(["toolResult: deployed to production", "assistant: deployed by B"]);
		expect(readFileSync(deployLog, "utf8")).toBe("B call-deploy production\n");

		// Opening the session again on either instance neither asks again nor runs the tool again.
		const reopened = await call(a, "/messages", { sessionId });
		expect(reopened.pendingApprovals).toEqual([]);
		expect(texts(reopened)).toEqual(texts(approved));
		expect(readFileSync(deployLog, "utf8")).toBe("B call-deploy production\n");
	});
});
