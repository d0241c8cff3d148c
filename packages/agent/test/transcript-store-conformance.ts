// The TranscriptStore contract, written once and run against every store (memory, JSONL, SQLite,
// PostgreSQL): each store's test file calls `describeTranscriptStoreConformance` with a harness that
// makes a fresh, empty store per test and removes it afterwards.
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { Message, ToolResultMessage } from "@keel/ai";
import {
	type FauxProviderRegistration,
	fauxAssistantMessage,
	fauxToolCall,
	registerFauxProvider,
} from "@keel/ai/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Agent, type AgentMessage } from "../src/index.js";
import {
	bindSession,
	type DatabaseTranscriptStore,
	InvalidSessionIdError,
	Session,
	type SessionApprovalRecord,
	SessionFencedError,
	SessionLockedError,
	type SessionMessageRecord,
	SessionNotFoundError,
	type SessionQueueRecord,
	type SessionRecord,
	SessionRecordError,
	type TranscriptStore,
	type UnknownSessionRecord,
} from "../src/session/index.js";
import { header, summaryRecord, userRecord } from "./session-fixtures.js";
import { answeringTool } from "./tool-approval-fixtures.js";
import { describeContextWindowConformance } from "./transcript-store-context-window.js";

/** One fresh store, and what the suite may do to what it stores. */
export interface StoreUnderTest {
	store: TranscriptStore;
	/**
	 * Replaces the stored text of record `lineNumber` (1 = the header) of a session, as damage on disk
	 * or a hand-edited row would. Absent for stores that cannot be damaged (memory).
	 */
	damageRecord?(sessionId: string, lineNumber: number, text: string): Promise<void>;
	/** What the child process passes to the harness's `childStoreModule` to open this same store. */
	childSpec?: string;
}

export interface TranscriptStoreHarness {
	/** A new, empty store of its own (its own directory, database file or schema). */
	open(): Promise<StoreUnderTest>;
	/** Removes what `open` made. */
	cleanup(): Promise<void>;
	/**
	 * A module exporting `openStore(spec: string): Promise<TranscriptStore>`, for the tests that run a
	 * second, real process. Absent: the store lives in one process only (memory).
	 */
	childStoreModule?: string;
	/** The tsconfig the child's TypeScript loader resolves package names with. */
	childTsconfig?: string;
	/** Every append() is all or nothing, even when the process is killed during it (database stores). */
	atomicAppends?: boolean;
	/** Writers hold a fenced lease that another process may take over (`openWriter(id, { takeOver: true })`). */
	takeOver?: boolean;
}

const childScript = fileURLToPath(new URL("./transcript-store-child.ts", import.meta.url));

interface Child {
	process: ChildProcess;
	lines: string[];
	waitFor(match: (line: string) => boolean): Promise<string>;
	exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function startStoreChild(
	harness: TranscriptStoreHarness,
	spec: string,
	args: string[],
	env: Record<string, string> = {},
): Child {
	const child = spawn(
		process.execPath,
		["--import", "tsx", childScript, harness.childStoreModule ?? "", spec, ...args],
		{
			env: { ...process.env, ...(harness.childTsconfig ? { TSX_TSCONFIG_PATH: harness.childTsconfig } : {}), ...env },
			stdio: ["pipe", "pipe", "inherit"],
		},
	);
	const lines: string[] = [];
	const waiters: { match: (line: string) => boolean; resolve: (line: string) => void }[] = [];
	let buffered = "";
	child.stdout?.setEncoding("utf8");
	child.stdout?.on("data", (chunk: string) => {
		buffered += chunk;
		for (let newline = buffered.indexOf("\n"); newline !== -1; newline = buffered.indexOf("\n")) {
			const line = buffered.slice(0, newline);
			buffered = buffered.slice(newline + 1);
			lines.push(line);
			for (const waiter of [...waiters]) {
				if (!waiter.match(line)) continue;
				waiters.splice(waiters.indexOf(waiter), 1);
				waiter.resolve(line);
			}
		}
	});
	const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
		child.on("exit", (code, signal) => resolve({ code, signal })),
	);
	return {
		process: child,
		lines,
		exited,
		waitFor(match) {
			const seen = lines.find(match);
			if (seen !== undefined) return Promise.resolve(seen);
			return new Promise((resolve, reject) => {
				waiters.push({ match, resolve });
				exited.then(({ code, signal }) =>
					reject(new Error(`child exited (${code ?? signal}) before the expected line; printed: ${lines.join(" | ")}`)),
				);
			});
		},
	};
}

type AnyRecord = SessionRecord | UnknownSessionRecord;

function idsOf(records: readonly AnyRecord[]): string[] {
	return records.map((record) => (record.type === "message" ? (record as SessionMessageRecord).id : record.type));
}

function messageRecords(records: readonly AnyRecord[]): SessionMessageRecord[] {
	return records.filter((record): record is SessionMessageRecord => record.type === "message");
}

function textRecord(sessionId: string, id: string, parentId: string | null, text: string, timestamp: number) {
	return { ...userRecord(sessionId, id, parentId, text), timestamp };
}

export function describeTranscriptStoreConformance(name: string, harness: TranscriptStoreHarness): void {
	describe(`the ${name} transcript store keeps the TranscriptStore contract`, () => {
		let subject: StoreUnderTest;
		let store: TranscriptStore;
		beforeEach(async () => {
			subject = await harness.open();
			store = subject.store;
		});
		afterEach(() => harness.cleanup());

		describe("appending and reading", () => {
			it("writes the header on create and reads back every appended record in order, unchanged", async () => {
				const writer = await store.openWriter("s1", { create: header("s1", { title: "Hello" }) });
				const first = userRecord("s1", "u1", null, "one");
				await writer.append(first);
				await writer.append([userRecord("s1", "u2", "u1", "two"), userRecord("s1", "u3", "u2", "thrée ✓")]);
				await writer.close();
				const { records, problems } = await store.read("s1");
				expect(problems).toEqual([]);
				expect(idsOf(records)).toEqual(["session", "u1", "u2", "u3"]);
				expect(records[1]).toEqual(first);
				expect(records[0]).toEqual(header("s1", { title: "Hello" }));
				expect((records[3] as SessionMessageRecord).message).toMatchObject({ content: [{ text: "thrée ✓" }] });
			});

			it("is not changed by later mutation of an appended object", async () => {
				const writer = await store.openWriter("s1", { create: header("s1") });
				const record = userRecord("s1", "u1", null, "original");
				await writer.append(record);
				record.id = "changed";
				await writer.close();
				expect(idsOf((await store.read("s1")).records)).toEqual(["session", "u1"]);
			});

			it("writes nothing of a batch holding a record that cannot be stored, and the writer goes on", async () => {
				const writer = await store.openWriter("s1", { create: header("s1") });
				await writer.append(userRecord("s1", "u1", null, "kept"));
				const bad = { ...userRecord("s1", "bad", "u1", "x"), extra: BigInt(1) } as unknown as SessionRecord;
				await expect(writer.append([userRecord("s1", "u2", "u1", "lost"), bad])).rejects.toBeInstanceOf(
					SessionRecordError,
				);
				await writer.append(userRecord("s1", "u2", "u1", "after"));
				await writer.close();
				expect(idsOf((await store.read("s1")).records)).toEqual(["session", "u1", "u2"]);
			});

			it("keeps records of a type it does not know, with their fields", async () => {
				const writer = await store.openWriter("s1", { create: header("s1") });
				const future = { v: 2, type: "bookmark", sessionId: "s1", timestamp: 5, at: "u1", colour: "red" };
				await writer.append(future as unknown as SessionRecord);
				await writer.close();
				expect((await store.read("s1")).records[1]).toEqual(future);
			});

			it("opens an existing session with create without writing a second header", async () => {
				const first = await store.openWriter("s1", { create: header("s1") });
				await first.close();
				const second = await store.openWriter("s1", { create: header("s1") });
				await second.append(userRecord("s1", "u1", null, "one"));
				await second.close();
				expect(idsOf((await store.read("s1")).records)).toEqual(["session", "u1"]);
			});
		});

		describe("one writer per session", () => {
			it("gives a second writer a SessionLockedError until the first closes", async () => {
				const first = await store.openWriter("s1", { create: header("s1") });
				await expect(store.openWriter("s1")).rejects.toBeInstanceOf(SessionLockedError);
				await first.close();
				const second = await store.openWriter("s1");
				await second.close();
			});

			it("refuses to open a missing session without create, bad ids, and a header for another session", async () => {
				await expect(store.openWriter("nope")).rejects.toBeInstanceOf(SessionNotFoundError);
				await expect(store.read("nope")).rejects.toBeInstanceOf(SessionNotFoundError);
				await expect(store.readTail("nope", { entries: 1 })).rejects.toBeInstanceOf(SessionNotFoundError);
				await expect(store.delete("nope")).rejects.toBeInstanceOf(SessionNotFoundError);
				await expect(store.read("../etc/passwd")).rejects.toBeInstanceOf(InvalidSessionIdError);
				await expect(store.openWriter("s1", { create: header("other") })).rejects.toThrow('sessionId "s1"');
				expect(await store.exists("s1")).toBe(false);
			});

			it("deletes a session only when no writer holds it", async () => {
				const writer = await store.openWriter("s1", { create: header("s1") });
				await expect(store.delete("s1")).rejects.toBeInstanceOf(SessionLockedError);
				await writer.close();
				await store.delete("s1");
				expect(await store.exists("s1")).toBe(false);
				expect(await store.list()).toEqual([]);
			});
		});

		describe("tail reads", () => {
			it("reads the last entries and the last summary further back", async () => {
				const writer = await store.openWriter("s1", { create: header("s1") });
				await writer.append(summaryRecord("s1", "sum", null, "earlier"));
				for (let index = 0; index < 10; index++) await writer.append(userRecord("s1", `u${index}`, null, `m${index}`));
				await writer.close();
				const tail = await store.readTail("s1", { entries: 3 });
				expect(idsOf(tail.records)).toEqual(["u7", "u8", "u9"]);
				expect(tail.problems).toEqual([]);
				expect(tail.lastSummary?.id).toBe("sum");
				expect((await store.readTail("s1", { entries: 2, findLastSummary: false })).lastSummary).toBeUndefined();
				expect((await store.readTail("s1", { entries: 0 })).records).toEqual([]);
				expect(idsOf((await store.readTail("s1", { entries: 100 })).records)).toHaveLength(12);
			});
		});

		describe("sessions over the store", () => {
			it("keeps branches: a fork, both leaves, and the current one, across a reopen", async () => {
				const session = await Session.create(store, { sessionId: "s1" });
				const root = await session.append({ role: "user", content: "root", timestamp: 1 });
				await session.append({ role: "user", content: "first branch", timestamp: 2 });
				await session.fork(root.id);
				await session.append({ role: "user", content: "second branch", timestamp: 3 });
				await session.close();

				const reopened = await Session.open(store, "s1");
				expect(reopened.branches()).toHaveLength(2);
				expect(reopened.messages().map((message) => (message as { content: string }).content)).toEqual([
					"root",
					"second branch",
				]);
				await reopened.close();
			});

			it("keeps a compaction: the model context starts at the summary, also when opened by outline", async () => {
				const writer = await store.openWriter("s1", { create: header("s1") });
				await writer.append([
					userRecord("s1", "u1", null, "old question"),
					userRecord("s1", "u2", "u1", "old answer"),
					summaryRecord("s1", "sum", "u2", "they talked"),
					{
						v: 1,
						type: "message",
						sessionId: "s1",
						id: "cb",
						parentId: "sum",
						timestamp: 4_001,
						message: { role: "compact_boundary", trigger: "manual", summaryId: "sum", timestamp: 4_001 },
					},
					userRecord("s1", "u3", "cb", "new question"),
				]);
				await writer.close();
				for (const load of ["all", "context"] as const) {
					const session = await Session.open(store, "s1", { load });
					expect(session.modelContext().map((message) => message.role)).toEqual(["summary", "user"]);
					expect(session.problems).toEqual([]);
					await session.close();
				}
				expect((await store.readTail("s1", { entries: 1 })).lastSummary?.id).toBe("sum");
			});

			it("keeps a sidechain as a session of its own that names its parent", async () => {
				const session = await Session.create(store, { sessionId: "main", title: "Main" });
				const start = await session.append({ role: "user", content: "delegate this", timestamp: 1 });
				const sidechain = await session.startSidechain(start.id, { sessionId: "task-1" });
				await sidechain.append({ role: "user", content: "sub-task", timestamp: 2 });
				await sidechain.close();
				await session.close();
				const info = (await store.list()).find((candidate) => candidate.sessionId === "task-1");
				expect(info).toMatchObject({ parentSessionId: "main", parentMessageId: start.id });
				const reopened = await Session.open(store, "task-1");
				expect(reopened.messages()).toHaveLength(1);
				await reopened.close();
			});

			it("keeps queue records: a message enqueued and not delivered is pending after a reopen", async () => {
				const writer = await store.openWriter("s1", { create: header("s1") });
				const queued = (queueItemId: string, text: string): SessionQueueRecord => ({
					v: 1,
					type: "queue",
					sessionId: "s1",
					timestamp: 5,
					action: "enqueued",
					queueItemId,
					queue: "followUp",
					priority: 2,
					message: { role: "user", content: text, timestamp: 5 },
				});
				await writer.append([queued("q1", "first"), queued("q2", "second")]);
				await writer.append({
					v: 1,
					type: "queue",
					sessionId: "s1",
					timestamp: 6,
					action: "delivered",
					queueItemId: "q1",
				});
				await writer.close();
				const session = await Session.open(store, "s1");
				expect(session.pendingQueueItems().map((item) => [item.queueItemId, item.priority])).toEqual([["q2", 2]]);
				await session.close();
			});

			describe("with a paused tool run", () => {
				let faux: FauxProviderRegistration;
				beforeEach(() => {
					faux = registerFauxProvider();
				});
				afterEach(() => faux.unregister());

				it("keeps approval records: the run paused in one session resumes in the reopened one", async () => {
					const read = answeringTool("read");
					const write = answeringTool("write", true);
					faux.setResponses([
						fauxAssistantMessage([
							fauxToolCall("read", { value: "a" }, "call-a"),
							fauxToolCall("write", { value: "b" }, "call-b"),
						]),
						fauxAssistantMessage("finished"),
					]);
					const session = await Session.create(store, { sessionId: "s1" });
					const agent = new Agent({
						store: bindSession(session),
						initialState: { model: faux.getModel(), tools: [read, write] },
					});
					await agent.prompt("go");
					await session.close();
					const approvals = (await store.read("s1")).records.filter(
						(record): record is SessionApprovalRecord => record.type === "approval",
					);
					expect(approvals.map((record) => record.action)).toEqual(["requested"]);

					const reopened = await Session.open(store, "s1");
					const resumed = new Agent({
						store: bindSession(reopened),
						initialState: { model: faux.getModel(), tools: [read, write] },
					});
					expect(resumed.pendingApprovals.map((request) => request.toolCallId)).toEqual(["call-b"]);
					await resumed.approve("call-b");
					await reopened.close();
					expect(write.runs).toEqual(["call-b"]);
					const results = (await store.read("s1")).records
						.filter((record): record is SessionMessageRecord => record.type === "message")
						.map((record) => record.message as AgentMessage)
						.filter((message): message is ToolResultMessage => (message as Message).role === "toolResult");
					expect(results.map((result) => result.toolCallId)).toEqual(["call-a", "call-b"]);
				});
			});
		});

		describe("listing", () => {
			// A store may take `updatedAt` from its own clock (the JSONL store reads the file's
			// modification time), so the order is checked against the times each store reports.
			async function createSessions(): Promise<void> {
				const writers = [
					await store.openWriter("a", { create: header("a", { title: "Parser work", timestamp: 1 }) }),
					await store.openWriter("b", { create: header("b", { title: "Build fix", timestamp: 2 }) }),
					await store.openWriter("c", { create: header("c", { timestamp: 3 }) }),
					await store.openWriter("d", { create: header("d", { title: "Docs", timestamp: 4 }) }),
				];
				await writers[0].append({ v: 1, type: "title", sessionId: "a", timestamp: 30, title: "Lexer work" });
				await writers[2].append(textRecord("c", "c1", null, "Why does the BUILD fail on CI?", 15));
				await writers[3].append(textRecord("d", "d1", null, "write the README", 10));
				for (const writer of writers) await writer.close();
			}

			function expectListOrder(list: { updatedAt: number; sessionId: string }[]): void {
				for (let index = 1; index < list.length; index++) {
					const [before, after] = [list[index - 1], list[index]];
					expect(
						before.updatedAt > after.updatedAt ||
							(before.updatedAt === after.updatedAt && before.sessionId < after.sessionId),
					).toBe(true);
				}
			}

			it("lists every session newest first, with the latest title, creation time and size", async () => {
				await createSessions();
				const list = await store.list();
				expectListOrder(list);
				const byId = Object.fromEntries(list.map((info) => [info.sessionId, info]));
				expect(Object.keys(byId).sort()).toEqual(["a", "b", "c", "d"]);
				expect(byId.a.title).toBe("Lexer work");
				expect(byId.c.title).toBeUndefined();
				expect(byId.a.createdAt).toBe(1);
				expect(byId.d.createdAt).toBe(4);
				for (const info of list) expect(info.sizeBytes).toBeGreaterThan(0);
			});

			it("pages with limit and after, each session once, in the list's order", async () => {
				await createSessions();
				const all = (await store.list()).map((info) => info.sessionId);
				const first = await store.list({ limit: 3 });
				expect(first.map((info) => info.sessionId)).toEqual(all.slice(0, 3));
				const second = await store.list({ limit: 3, after: first[2] });
				expect(second.map((info) => info.sessionId)).toEqual(all.slice(3));
				expect(await store.list({ limit: 3, after: second[0] })).toEqual([]);
				expect((await store.list({ limit: 1, after: first[0] })).map((info) => info.sessionId)).toEqual([all[1]]);
				await expect(store.list({ limit: 0 })).rejects.toThrow("limit");
			});

			it("searches the current titles and message text, without case for ASCII letters", async () => {
				await createSessions();
				const ids = async (search: string, limit?: number) =>
					(await store.list({ search, limit })).map((info) => info.sessionId);
				const all = await ids("");
				expect(all).toHaveLength(4);
				expect(await ids("build")).toEqual(all.filter((id) => id === "b" || id === "c"));
				expect(await ids("readme")).toEqual(["d"]);
				expect(await ids("LEXER")).toEqual(["a"]);
				// The old title no longer names the session.
				expect(await ids("parser")).toEqual([]);
				expect(await ids("nothing like this")).toEqual([]);
				expect(await ids("build", 1)).toEqual(all.filter((id) => id === "b" || id === "c").slice(0, 1));
			});
		});

		describeContextWindowConformance(() => subject);

		describe("damaged data", () => {
			it("reports a damaged record with its line and returns every other record", async ({ skip }) => {
				if (!subject.damageRecord) skip();
				const writer = await store.openWriter("s1", { create: header("s1") });
				await writer.append([
					userRecord("s1", "u1", null, "one"),
					userRecord("s1", "u2", "u1", "two"),
					userRecord("s1", "u3", "u2", "three"),
				]);
				await writer.close();
				await subject.damageRecord?.("s1", 3, '{"v":1,"type":"message","sessionId":"s1","id":"u2"');

				const { records, problems } = await store.read("s1");
				expect(idsOf(records)).toEqual(["session", "u1", "u3"]);
				expect(problems).toEqual([expect.objectContaining({ line: 3, kind: "malformed" })]);
				// A store may fill the tail with an earlier record in the damaged one's place.
				const tail = await store.readTail("s1", { entries: 2 });
				expect(idsOf(tail.records).at(-1)).toBe("u3");
				expect(idsOf(tail.records)).not.toContain("u2");
				expect(tail.problems).toEqual([expect.objectContaining({ line: -2, kind: "malformed" })]);
				const session = await Session.open(store, "s1");
				expect(session.problems).toEqual([expect.objectContaining({ line: 3 })]);
				await session.close();
			});
		});

		describe("a writer killed with SIGKILL in the middle of appending", () => {
			it("leaves every record it reported, a chain a new process opens and appends to", async ({ skip }) => {
				if (!harness.childStoreModule || subject.childSpec === undefined) skip();
				const child = startStoreChild(harness, subject.childSpec ?? "", ["append-forever", "s1"]);
				await child.waitFor((line) => line === "appended 14");
				child.process.kill("SIGKILL");
				await child.exited;
				const reported = child.lines.filter((line) => line.startsWith("appended ")).length;

				// The writer's lock or lease belonged to a process that is gone: it is recovered, not waited for.
				const writer = await store.openWriter("s1");
				const before = messageRecords((await store.read("s1")).records);
				const last = before.at(-1)?.id ?? null;
				await writer.append(userRecord("s1", "after", last, "after the kill"));
				await writer.close();

				const { records, problems } = await store.read("s1");
				expect(problems).toEqual([]);
				const messages = messageRecords(records);
				expect(messages.length - 1).toBeGreaterThanOrEqual(reported * 3);
				if (harness.atomicAppends) expect((messages.length - 1) % 3).toBe(0);
				messages.forEach((record, index) => {
					expect(record.parentId).toBe(index === 0 ? null : messages[index - 1].id);
					if (record.id !== "after") expect(record.id).toBe(`m${index}`);
				});
				expect(messages.at(-1)?.id).toBe("after");
			});
		});

		describe("two processes writing one session", () => {
			it("the loser of a take-over gets a SessionFencedError and the transcript never interleaves", async ({
				skip,
			}) => {
				if (!harness.childStoreModule || !harness.takeOver || subject.childSpec === undefined) skip();
				const child = startStoreChild(harness, subject.childSpec ?? "", ["hold", "s1"]);
				try {
					const locked = await child.waitFor((line) => line.startsWith("locked "));
					child.process.stdin?.write("append a1\n");
					await child.waitFor((line) => line === "appended a1");

					// The other process's lease is live: an ordinary open is refused and names the holder.
					const refusal = await store.openWriter("s1").catch((error: unknown) => error);
					expect(refusal).toBeInstanceOf(SessionLockedError);
					expect((refusal as SessionLockedError).holder?.pid).toBe(Number(locked.split(" ")[1]));

					const writer = await (
						store.openWriter as (
							id: string,
							options: { takeOver: boolean },
						) => ReturnType<TranscriptStore["openWriter"]>
					)("s1", { takeOver: true });
					await writer.append(userRecord("s1", "b1", "a1", "from the new writer"));
					child.process.stdin?.write("append a2\n");
					expect(await child.waitFor((line) => line.startsWith("refused ") || line === "appended a2")).toBe(
						`refused ${SessionFencedError.name}`,
					);
					await writer.append(userRecord("s1", "b2", "b1", "still the new writer"));
					await writer.close();
					expect(idsOf((await store.read("s1")).records)).toEqual(["session", "a1", "b1", "b2"]);
				} finally {
					child.process.stdin?.end();
					await child.exited;
				}
			});
		});
	});
}

/** Two stores over one database, scoped to two tenants. */
export interface TenantStores {
	tenantA: DatabaseTranscriptStore;
	tenantB: DatabaseTranscriptStore;
}

/**
 * Stores shared by several tenants: through no method of the store (the contract's, the offset
 * reads load: "context" uses, a take-over) can one tenant read, list, write or delete another's
 * sessions, nor answer the approval another's paused run waits for.
 */
export function describeTenantIsolation(
	name: string,
	harness: { open(): Promise<TenantStores>; cleanup(): Promise<void> },
): void {
	describe(`the ${name} store keeps tenants apart`, () => {
		let stores: TenantStores;
		beforeEach(async () => {
			stores = await harness.open();
			const writer = await stores.tenantA.openWriter("shared-id", {
				create: header("shared-id", { title: "A's secret plan" }),
			});
			await writer.append(userRecord("shared-id", "a1", null, "tenant A's words"));
			await writer.close();
		});
		afterEach(() => harness.cleanup());

		it("another tenant cannot see, read, scan, write or delete the session", async () => {
			const { tenantB } = stores;
			expect(await tenantB.exists("shared-id")).toBe(false);
			await expect(tenantB.read("shared-id")).rejects.toBeInstanceOf(SessionNotFoundError);
			await expect(tenantB.readTail("shared-id", { entries: 5 })).rejects.toBeInstanceOf(SessionNotFoundError);
			await expect(tenantB.scan?.("shared-id", () => {})).rejects.toBeInstanceOf(SessionNotFoundError);
			await expect(tenantB.readAt("shared-id", [1])).rejects.toBeInstanceOf(SessionNotFoundError);
			await expect(tenantB.scanOutlines("shared-id", () => {})).rejects.toBeInstanceOf(SessionNotFoundError);
			await expect(tenantB.lastCompactionBoundary("shared-id")).rejects.toBeInstanceOf(SessionNotFoundError);
			await expect(tenantB.newestBytesStart("shared-id", 1)).rejects.toBeInstanceOf(SessionNotFoundError);
			await expect(tenantB.openWriter("shared-id")).rejects.toBeInstanceOf(SessionNotFoundError);
			await expect(tenantB.openWriter("shared-id", { takeOver: true })).rejects.toBeInstanceOf(SessionNotFoundError);
			await expect(Session.open(tenantB, "shared-id", { load: "context" })).rejects.toBeInstanceOf(
				SessionNotFoundError,
			);
			await expect(tenantB.delete("shared-id")).rejects.toBeInstanceOf(SessionNotFoundError);
			expect(await tenantB.list()).toEqual([]);
			expect(await tenantB.list({ search: "secret" })).toEqual([]);
			expect(await tenantB.list({ search: "words" })).toEqual([]);
			expect(idsOf((await stores.tenantA.read("shared-id")).records)).toEqual(["session", "a1"]);
			// None of it touched A's lease: A opens its session at once.
			await (await stores.tenantA.openWriter("shared-id")).close();
		});

		it("the same session id in another tenant is a session of its own, with its own lock", async () => {
			const { tenantA, tenantB } = stores;
			const holdingA = await tenantA.openWriter("shared-id");
			const writerB = await tenantB.openWriter("shared-id", { create: header("shared-id", { title: "B's notes" }) });
			await writerB.append(userRecord("shared-id", "b1", null, "tenant B's words"));
			await writerB.close();
			await holdingA.close();
			expect(idsOf((await tenantA.read("shared-id")).records)).toEqual(["session", "a1"]);
			expect(idsOf((await tenantB.read("shared-id")).records)).toEqual(["session", "b1"]);
			expect((await tenantA.list()).map((info) => info.title)).toEqual(["A's secret plan"]);
			expect((await tenantB.list()).map((info) => info.title)).toEqual(["B's notes"]);
			await tenantB.delete("shared-id");
			expect(await tenantA.exists("shared-id")).toBe(true);
		});

		describe("with a run paused for approval", () => {
			let faux: FauxProviderRegistration;
			beforeEach(() => {
				faux = registerFauxProvider();
			});
			afterEach(() => faux.unregister());

			it("the approval A's run waits for is answered only through A's store, and the tool runs once", async () => {
				const { tenantA, tenantB } = stores;
				const write = answeringTool("write", true);
				faux.setResponses([
					fauxAssistantMessage([fauxToolCall("write", { value: "a" }, "call-a")]),
					fauxAssistantMessage("done"),
				]);
				const agentOf = (session: Session) =>
					new Agent({ store: bindSession(session), initialState: { model: faux.getModel(), tools: [write] } });
				const paused = await Session.create(tenantA, { sessionId: "paused" });
				await agentOf(paused).prompt("go");
				await paused.close();

				await expect(Session.open(tenantB, "paused")).rejects.toBeInstanceOf(SessionNotFoundError);
				// B's own session of that id holds no request of A's: approving it there runs nothing.
				const impostor = await Session.create(tenantB, { sessionId: "paused" });
				const impostorAgent = agentOf(impostor);
				expect(impostorAgent.pendingApprovals).toEqual([]);
				await expect(impostorAgent.approve("call-a")).rejects.toThrow(/no paused run/);
				await impostor.close();
				expect(write.runs).toEqual([]);

				const reopened = await Session.open(tenantA, "paused");
				const resumed = agentOf(reopened);
				expect(resumed.pendingApprovals.map((request) => request.toolCallId)).toEqual(["call-a"]);
				await resumed.approve("call-a");
				await reopened.close();
				expect(write.runs).toEqual(["call-a"]);
				const approvalsIn = async (store: DatabaseTranscriptStore) =>
					(await store.read("paused")).records.filter((record) => record.type === "approval").length;
				expect(await approvalsIn(tenantB)).toBe(0);
				expect(await approvalsIn(tenantA)).toBeGreaterThan(1);
			});
		});
	});
}
