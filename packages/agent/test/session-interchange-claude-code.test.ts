// Importing real Claude Code transcripts (fixtures/claude-code, see its README) into Keel sessions,
// and exporting Keel sessions as Claude Code transcripts.
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AssistantMessage, ToolResultMessage } from "@keel/ai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
	convertClaudeCodeTranscript,
	createMemoryTranscriptStore,
	exportSession,
	ForeignTranscriptError,
	importTranscript,
	resumeAgent,
	Session,
	TranscriptInterchangeError,
} from "../src/session/index.js";
import { createJsonlTranscriptStore } from "../src/session/jsonl/index.js";
import { assistantMessage, toolResult, userMessage } from "./session-helpers.js";

const fixtures = join(import.meta.dirname, "fixtures", "claude-code");
const COMPACTED = "8463c716-a2ea-4c14-9efa-87158ebd9f20";

// biome-ignore lint/suspicious/noExplicitAny: the lines of a foreign JSONL file, read field by field as the file has them
type Line = Record<string, any>;
const linesOf = (name: string): Line[] =>
	readFileSync(join(fixtures, name), "utf8")
		.split("\n")
		.filter((line) => line !== "")
		.map((line) => JSON.parse(line));

function sidechainFiles(session: string) {
	const directory = join(fixtures, session, "subagents");
	return readdirSync(directory).map((name) => ({ name, text: readFileSync(join(directory, name), "utf8") }));
}

/** What the file itself says the conversation is, counted from its lines independently of the importer. */
function expectedCounts(lines: Line[]) {
	const main = lines.filter((line) => !line.isSidechain);
	const responses = new Map<string, Line>();
	for (const line of main) if (line.type === "assistant") responses.set(line.message.id, line);
	const results = main
		.filter((line) => line.type === "user" && Array.isArray(line.message.content))
		.flatMap((line) => line.message.content.filter((block: Line) => block.type === "tool_result"));
	const prompts = main.filter(
		(line) =>
			line.type === "user" &&
			!line.isCompactSummary &&
			(typeof line.message.content === "string" ||
				line.message.content.some((block: Line) => block.type !== "tool_result")),
	);
	// Usage once per response: the last line of each message id carries its final count.
	const output = [...responses.values()].reduce((sum, line) => sum + line.message.usage.output_tokens, 0);
	const toolNames = new Map<string, string>();
	for (const line of main)
		if (line.type === "assistant")
			for (const block of line.message.content) if (block.type === "tool_use") toolNames.set(block.id, block.name);
	return { responses: responses.size, results: results.length, prompts: prompts.length, output, toolNames };
}

describe("importing Claude Code transcripts", () => {
	for (const name of ["short.jsonl", "tool_heavy.jsonl", `${COMPACTED}.jsonl`]) {
		it(`${name}: resumes every response once, every tool result paired with its call and named, usage counted once per response`, async () => {
			const lines = linesOf(name);
			const expected = expectedCounts(lines);
			const store = createMemoryTranscriptStore();
			const result = await importTranscript(store, readFileSync(join(fixtures, name), "utf8"));
			expect(result.format).toBe("claude-code");
			const session = await Session.open(store, result.session.sessionId);
			const messages = session.messages();
			const byRole = (role: string) => messages.filter((message) => message.role === role);
			expect(byRole("assistant")).toHaveLength(expected.responses);
			expect(byRole("toolResult")).toHaveLength(expected.results);
			expect(byRole("user")).toHaveLength(expected.prompts);
			const output = (byRole("assistant") as AssistantMessage[]).reduce(
				(sum, message) => sum + message.usage.output,
				0,
			);
			expect(output).toBe(expected.output);
			// Every result follows (somewhere after) the call it answers, and carries the call's tool name.
			const seenCalls = new Set<string>();
			for (const message of messages) {
				if (message.role === "assistant")
					for (const block of message.content) if (block.type === "toolCall") seenCalls.add(block.id);
				if (message.role === "toolResult") {
					const resultMessage = message as ToolResultMessage;
					expect(seenCalls.has(resultMessage.toolCallId)).toBe(true);
					expect(resultMessage.toolName).toBe(expected.toolNames.get(resultMessage.toolCallId));
					expect(resultMessage.toolName).not.toBe("");
				}
			}
			expect(session.unansweredToolCalls()).toEqual([]);
			await session.close();
		});
	}

	it("keeps the compact boundary: the resumed context is the summary and what follows it", async () => {
		const store = createMemoryTranscriptStore();
		const result = await importTranscript(store, readFileSync(join(fixtures, `${COMPACTED}.jsonl`), "utf8"), {
			sidechains: sidechainFiles(COMPACTED),
		});
		const session = await Session.open(store, result.session.sessionId);
		const context = session.modelContext();
		expect(context[0].role).toBe("summary");
		expect((context[0] as unknown as { summary: string }).summary).toMatch(/^This session is being continued/);
		const lines = linesOf(`${COMPACTED}.jsonl`);
		const boundaryIndex = lines.findIndex((line) => line.subtype === "compact_boundary");
		const responsesAfter = new Set(
			lines
				.slice(boundaryIndex)
				.filter((line) => line.type === "assistant" && !line.isSidechain)
				.map((line) => line.message.id),
		);
		expect(context.filter((message) => message.role === "assistant")).toHaveLength(responsesAfter.size);
		expect(session.messages().length).toBeGreaterThan(context.length);
		const agent = await resumeAgent(session);
		expect(agent.state.messages.filter((message) => message.role === "assistant")).toHaveLength(responsesAfter.size);
		await session.close();
	});

	it("follows a compact boundary whose logical parent the file does not hold from the line before it, keeping the history", async () => {
		// Real transcripts have this (session 4d5611e5 of the same source names a logicalParentUuid no
		// line holds); here the boundary of the committed session is made to name one.
		const text = readFileSync(join(fixtures, `${COMPACTED}.jsonl`), "utf8");
		const boundary = linesOf(`${COMPACTED}.jsonl`).find((line) => line.subtype === "compact_boundary");
		const broken = text.replace(
			`"logicalParentUuid":"${boundary?.logicalParentUuid}"`,
			'"logicalParentUuid":"0000-never-written"',
		);
		expect(broken).not.toBe(text);
		const store = createMemoryTranscriptStore();
		const result = await importTranscript(store, broken);
		expect(result.skipped["link to a line the file does not hold (followed the line before)"]).toBe(1);
		const session = await Session.open(store, result.session.sessionId);
		const expected = expectedCounts(linesOf(`${COMPACTED}.jsonl`));
		expect(session.messages().filter((message) => message.role === "assistant")).toHaveLength(expected.responses);
		expect(session.messages().filter((message) => message.role === "toolResult")).toHaveLength(expected.results);
		await session.close();
	});

	it("imports sub-agents as sidechain sessions linked to the message that started them, not in the main context", async () => {
		const store = createMemoryTranscriptStore();
		const result = await importTranscript(store, readFileSync(join(fixtures, `${COMPACTED}.jsonl`), "utf8"), {
			sidechains: sidechainFiles(COMPACTED),
		});
		const main = await Session.open(store, result.session.sessionId);
		const agentSidechain = result.sidechains.find((sidechain) => sidechain.sessionId.endsWith("--agent-a7be2f0"));
		if (agentSidechain?.parentMessageId === undefined)
			throw new Error("the sub-agent was not imported with its starting message");
		const starter = main.getRecord(agentSidechain.parentMessageId);
		expect(starter?.message.role).toBe("assistant");
		const taskCall = (starter?.message as AssistantMessage | undefined)?.content.find(
			(block) => block.type === "toolCall",
		);
		expect(taskCall?.name).toBe("Task");
		const sidechain = await Session.open(store, agentSidechain.sessionId);
		expect(sidechain.header?.parentSessionId).toBe(result.session.sessionId);
		const firstPrompt = sidechain.messages()[0];
		expect(firstPrompt.role).toBe("user");
		const sidechainIds = new Set(sidechain.branch().map((record) => record.id));
		expect(main.branch().some((record) => sidechainIds.has(record.id))).toBe(false);
		const subagentLines = linesOf(`${COMPACTED}/subagents/agent-a7be2f0.jsonl`);
		const subagentResponses = new Set(
			subagentLines.filter((line) => line.type === "assistant").map((line) => line.message.id),
		);
		expect(sidechain.messages().filter((message) => message.role === "assistant")).toHaveLength(subagentResponses.size);
		await Promise.all([main.close(), sidechain.close()]);
	});

	it("leaves the source file's bytes unchanged after importing and after resuming and appending to the import", async () => {
		const directory = mkdtempSync(join(tmpdir(), "keel-claude-import-"));
		try {
			const source = join(directory, "source.jsonl");
			copyFileSync(join(fixtures, "tool_heavy.jsonl"), source);
			const before = readFileSync(source);
			const store = createJsonlTranscriptStore({ directory: join(directory, "sessions") });
			const result = await importTranscript(store, readFileSync(source, "utf8"), { sessionId: "imported" });
			const session = await Session.open(store, result.session.sessionId);
			await session.append(userMessage("And now?"));
			await session.close();
			expect(readFileSync(source).equals(before)).toBe(true);
			expect(readdirSync(join(directory, "sessions")).filter((name) => !name.startsWith("imported."))).toEqual([]);
		} finally {
			rmSync(directory, { recursive: true, force: true });
		}
	});
});

describe("opening a Claude Code transcript directly", () => {
	let directory: string;
	beforeEach(() => {
		directory = mkdtempSync(join(tmpdir(), "keel-foreign-open-"));
	});
	afterEach(() => rmSync(directory, { recursive: true, force: true }));

	it("refuses with an error pointing to the import, leaving the file unchanged", async () => {
		mkdirSync(join(directory, "sessions"));
		const file = join(directory, "sessions", "cc.jsonl");
		copyFileSync(join(fixtures, "short.jsonl"), file);
		const before = readFileSync(file);
		const store = createJsonlTranscriptStore({ directory: join(directory, "sessions") });
		const opening = Session.open(store, "cc");
		await expect(opening).rejects.toBeInstanceOf(ForeignTranscriptError);
		await expect(Session.open(store, "cc")).rejects.toThrow(/Claude Code transcript.*keel sessions import/);
		expect(readFileSync(file).equals(before)).toBe(true);
		expect(readdirSync(join(directory, "sessions"))).toEqual(["cc.jsonl"]);
	});
});

describe("bad input to a Claude Code import", () => {
	const text = readFileSync(join(fixtures, "short.jsonl"), "utf8");
	const cases: [string, string, RegExp][] = [
		["an empty file", "", /is empty/],
		[
			"a file of neither format",
			'{"hello":"world"}\n{"also":"not a transcript"}\n',
			/neither a pi session nor a Claude Code transcript/,
		],
		["a truncated last line", text.slice(0, text.length - 40), /line 15 is cut off/],
		["a line that is not JSON", `${text.split("\n")[0]}\nnot json\n`, /line 2 is not valid JSON/],
	];
	for (const [what, input, message] of cases) {
		it(`${what}: a clear error, and nothing written`, async () => {
			const store = createMemoryTranscriptStore();
			await expect(importTranscript(store, input)).rejects.toThrow(message);
			await expect(importTranscript(store, input)).rejects.toBeInstanceOf(TranscriptInterchangeError);
			expect(await store.list()).toEqual([]);
		});
	}

	it("refuses to import over an existing session, writing nothing", async () => {
		const store = createMemoryTranscriptStore();
		await importTranscript(store, text, { sessionId: "one" });
		await expect(importTranscript(store, text, { sessionId: "one" })).rejects.toThrow(/already exists/);
		expect((await store.list()).map((info) => info.sessionId)).toEqual(["one"]);
	});
});

describe("exporting to Claude Code's format", () => {
	it("writes lines with Claude Code's fields that import back to the same conversation", async () => {
		const store = createMemoryTranscriptStore();
		const session = await Session.create(store, { sessionId: "keel-1", state: { workingDirectory: "/repo" } });
		await session.append(userMessage("Why does the build fail?"));
		await session.append(
			assistantMessage("Let me look.", [{ id: "call-1", name: "bash", arguments: { command: "npm run build" } }]),
		);
		await session.append(toolResult("call-1", "error TS2322", "bash"));
		await session.append(assistantMessage("A type error in src/a.ts."));
		await session.close();

		const text = await exportSession(store, "keel-1", "claude-code");
		const lines = text
			.trimEnd()
			.split("\n")
			.map((line) => JSON.parse(line));
		expect(lines).toHaveLength(4);
		let previous: string | null = null;
		for (const line of lines) {
			expect(Object.keys(line)).toEqual(
				expect.arrayContaining(["uuid", "parentUuid", "sessionId", "type", "message", "timestamp", "isSidechain"]),
			);
			expect(line.parentUuid).toBe(previous);
			expect(line.sessionId).toBe("keel-1");
			expect(line.isSidechain).toBe(false);
			expect(Number.isNaN(Date.parse(line.timestamp))).toBe(false);
			previous = line.uuid;
		}
		expect(lines.map((line) => line.type)).toEqual(["user", "assistant", "user", "assistant"]);
		expect(lines[1].message.content[1]).toEqual({
			type: "tool_use",
			id: "call-1",
			name: "bash",
			input: { command: "npm run build" },
		});
		expect(lines[2].message.content[0]).toMatchObject({ type: "tool_result", tool_use_id: "call-1" });

		const converted = convertClaudeCodeTranscript(text, { sessionId: "again" });
		const original = await Session.open(store, "keel-1");
		const simplify = (message: Record<string, unknown>) => ({
			role: message.role,
			text: JSON.stringify(message.content),
			...(message.role === "toolResult" ? { toolCallId: message.toolCallId, toolName: message.toolName } : {}),
		});
		expect(converted.main.messages.map((record) => simplify(record.message as never))).toEqual(
			original.messages().map((message) => simplify(message as never)),
		);
		await original.close();
	});

	it("writes a compaction as Claude Code does, and it imports back as a compaction", async () => {
		const store = createMemoryTranscriptStore();
		const session = await Session.create(store, { sessionId: "keel-2" });
		await session.append(userMessage("first"));
		await session.append(assistantMessage("first answer"));
		await session.appendCompaction(
			{
				role: "summary",
				summary: "We talked about the first thing.",
				summarisedMessageCount: 2,
				timestamp: Date.now(),
			},
			{ trigger: "manual", tokensBefore: 1234 },
		);
		await session.append(userMessage("second"));
		await session.append(assistantMessage("second answer"));
		await session.close();

		const text = await exportSession(store, "keel-2", "claude-code");
		const lines = text
			.trimEnd()
			.split("\n")
			.map((line) => JSON.parse(line));
		const boundary = lines.find((line) => line.subtype === "compact_boundary");
		expect(boundary).toMatchObject({
			type: "system",
			parentUuid: null,
			compactMetadata: { trigger: "manual", preTokens: 1234 },
		});
		expect(boundary.logicalParentUuid).toBe(lines[1].uuid);
		const imported = createMemoryTranscriptStore();
		await importTranscript(imported, text, { sessionId: "back" });
		const reopened = await Session.open(imported, "back");
		expect(reopened.modelContext().map((message) => message.role)).toEqual(["summary", "user", "assistant"]);
		await reopened.close();
	});
});

describe("Claude Code sub-agents in other layouts", () => {
	const line = (fields: Record<string, unknown>) =>
		JSON.stringify({
			userType: "external",
			cwd: "/w",
			sessionId: "s-1",
			timestamp: "2025-10-28T18:06:11.015Z",
			...fields,
		});
	const user = (uuid: string, parentUuid: string | null, content: unknown, extra: Record<string, unknown> = {}) =>
		line({ type: "user", uuid, parentUuid, isSidechain: false, message: { role: "user", content }, ...extra });
	const assistant = (
		uuid: string,
		parentUuid: string,
		id: string,
		content: unknown[],
		extra: Record<string, unknown> = {},
	) =>
		line({
			type: "assistant",
			uuid,
			parentUuid,
			isSidechain: false,
			message: {
				id,
				role: "assistant",
				model: "claude-sonnet-4-5",
				content,
				stop_reason: "end_turn",
				usage: { input_tokens: 5, output_tokens: 3 },
			},
			...extra,
		});

	it("imports an older transcript's inline sidechain lines as their own session, kept out of the main branch", async () => {
		const side = { isSidechain: true, agentId: "a1" };
		const text = `${[
			user("u1", null, "Look into the build"),
			assistant("a1l", "u1", "m1", [
				{ type: "tool_use", id: "call-task", name: "Task", input: { prompt: "Find the error" } },
			]),
			user("s1", null, "Find the error", side),
			assistant("s2", "s1", "m-side", [{ type: "text", text: "It is in src/a.ts" }], side),
			line({
				type: "progress",
				uuid: "p1",
				parentUuid: "a1l",
				isSidechain: false,
				data: { type: "agent_progress", agentId: "a1" },
				parentToolUseID: "call-task",
			}),
			user("u2", "p1", [{ type: "tool_result", tool_use_id: "call-task", content: "It is in src/a.ts" }]),
			assistant("a2l", "u2", "m2", [{ type: "text", text: "The error is in src/a.ts." }]),
		].join("\n")}\n`;
		const store = createMemoryTranscriptStore();
		const result = await importTranscript(store, text);
		expect(result.sidechains).toEqual([{ sessionId: "s-1--agent-a1", messageCount: 2, parentMessageId: "a1l" }]);
		const main = await Session.open(store, "s-1");
		expect(main.messages().map((message) => message.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
		expect((main.messages()[2] as ToolResultMessage).toolName).toBe("Task");
		await main.close();
	});

	it("imports a sub-agent's own file on its own as a session linked to its parent session", async () => {
		const side = { isSidechain: true, agentId: "ac0c74c" };
		const text = `${[user("w1", null, "Warmup", side), assistant("w2", "w1", "m-w", [{ type: "text", text: "Ready." }], side)].join("\n")}\n`;
		const store = createMemoryTranscriptStore();
		const result = await importTranscript(store, text);
		expect(result.session).toEqual({ sessionId: "s-1--agent-ac0c74c", messageCount: 2 });
		const session = await Session.open(store, "s-1--agent-ac0c74c");
		expect(session.header?.parentSessionId).toBe("s-1");
		expect(session.messages().map((message) => message.role)).toEqual(["user", "assistant"]);
		await session.close();
	});
});

describe("exporting an imported sub-agent to Claude Code's format", () => {
	it("writes sidechain lines with the parent's session id and the agent id, which import back to the same sidechain", async () => {
		const store = createMemoryTranscriptStore();
		await importTranscript(store, readFileSync(join(fixtures, `${COMPACTED}.jsonl`), "utf8"), {
			sidechains: sidechainFiles(COMPACTED),
		});
		const sidechainId = `${COMPACTED}--agent-a7be2f0`;
		const text = await exportSession(store, sidechainId, "claude-code");
		const lines = text
			.trimEnd()
			.split("\n")
			.map((line) => JSON.parse(line));
		expect(
			lines.every((line) => line.isSidechain === true && line.agentId === "a7be2f0" && line.sessionId === COMPACTED),
		).toBe(true);
		const back = createMemoryTranscriptStore();
		const result = await importTranscript(back, text);
		expect(result.session.sessionId).toBe(sidechainId);
		const original = await Session.open(store, sidechainId);
		const reimported = await Session.open(back, sidechainId);
		expect(reimported.header?.parentSessionId).toBe(COMPACTED);
		const shape = (session: Session) =>
			session.messages().map((message) => [message.role, JSON.stringify((message as { content?: unknown }).content)]);
		expect(shape(reimported)).toEqual(shape(original));
		await Promise.all([original.close(), reimported.close()]);
	});
});
