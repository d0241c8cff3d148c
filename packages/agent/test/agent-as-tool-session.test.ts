// agentAsTool with sessions: each child's transcript is a sidechain of the parent's session (a
// session of its own in the same store, linked to the assistant message and the tool call), kept out
// of the parent's context, readable on its own; the same over the memory store and the JSONL store.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ToolResultMessage } from "@keel/ai";
import {
	type FauxProviderRegistration,
	fauxAssistantMessage,
	fauxToolCall,
	registerFauxProvider,
} from "@keel/ai/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Agent, type AgentToolRunDetails, agentAsTool, sumUsage } from "../src/index.js";
import {
	bindSession,
	createMemoryTranscriptStore,
	listSidechains,
	resumeAgent,
	Session,
	sidechainStores,
	type TranscriptStore,
} from "../src/session/index.js";
import { createJsonlTranscriptStore } from "../src/session/jsonl/index.js";

let parentFaux: FauxProviderRegistration<"faux-parent">;
let childFaux: FauxProviderRegistration<"faux-child">;
let directory: string;

beforeEach(() => {
	const cost = { input: 3, output: 15, cacheRead: 0, cacheWrite: 0 };
	parentFaux = registerFauxProvider({ api: "faux-parent", models: [{ id: "parent-model", cost }] });
	childFaux = registerFauxProvider({ api: "faux-child", models: [{ id: "child-model", cost }] });
	directory = mkdtempSync(join(tmpdir(), "keel-agent-tool-"));
});
afterEach(() => {
	parentFaux.unregister();
	childFaux.unregister();
	rmSync(directory, { recursive: true, force: true });
});

const stores: [string, () => TranscriptStore][] = [
	["the memory store", () => createMemoryTranscriptStore()],
	["the JSONL store", () => createJsonlTranscriptStore({ directory })],
];

function texts(messages: readonly unknown[]): string[] {
	return messages.map((message) => {
		const content = (message as { content: unknown }).content;
		if (typeof content === "string") return content;
		return (content as { type: string; text?: string; name?: string }[])
			.map((block) => block.text ?? `[${block.type} ${block.name ?? ""}]`)
			.join("");
	});
}

describe.each(stores)("agentAsTool with sidechains, over %s", (_name, createStore) => {
	it("keeps the child's transcript as a sidechain linked to the call, out of the parent's context", async () => {
		const store = createStore();
		const parentSession = await Session.create(store, { title: "main" });
		const researcher = agentAsTool({
			name: "researcher",
			description: "Researches",
			agent: { initialState: { model: childFaux.getModel(), systemPrompt: "You research." } },
			childStore: sidechainStores(parentSession),
		});
		parentFaux.setResponses([
			fauxAssistantMessage(fauxToolCall("researcher", { input: "Find the answer" }, "call-7")),
			"The researcher says 42.",
		]);
		childFaux.setResponses(["The answer is 42."]);
		const parent = new Agent({
			store: bindSession(parentSession),
			initialState: { model: parentFaux.getModel(), tools: [researcher] },
		});
		await parent.prompt("Ask the researcher");

		const parentTexts = texts(parentSession.modelContext());
		expect(parentTexts).toEqual([
			"Ask the researcher",
			"[toolCall researcher]",
			"The answer is 42.",
			"The researcher says 42.",
		]);
		const toolResult = parentSession.modelContext()[2] as ToolResultMessage;
		const details = toolResult.details as AgentToolRunDetails;

		const [sidechain] = await listSidechains(store, parentSession.id);
		expect(sidechain.sessionId).toBe(details.sessionId);
		const callingMessageId = parentSession.idOf(parentSession.modelContext()[1]);
		expect(sidechain.parentMessageId).toBe(callingMessageId);
		expect(sidechain.title).toBe("researcher: call-7");
		await parent.waitForIdle();
		await parentSession.close();

		const child = await Session.open(store, sidechain.sessionId);
		expect(child.header).toMatchObject({
			parentSessionId: parentSession.id,
			parentMessageId: callingMessageId,
			parentToolCallId: "call-7",
		});
		expect(texts(child.messages())).toEqual(["Find the answer", "The answer is 42."]);
		expect(child.state.agent?.systemPrompt).toBe("You research.");
		// The child's usage is on the stored tool result, and sums with the parent's own.
		expect(toolResult.usage).toEqual(sumUsage(child.messages()));
		await child.close();

		// The parent resumes with its own conversation only.
		const reopened = await Session.open(store, parentSession.id);
		const resumed = await resumeAgent(reopened, { tools: [researcher] });
		expect(texts(resumed.state.messages)).toEqual(parentTexts);
		const storedResult = resumed.state.messages[2] as ToolResultMessage;
		expect(storedResult.usage?.totalTokens).toBeGreaterThan(0);
		expect(sumUsage(resumed.state.messages).totalTokens).toBe(sumUsage(parent.state.messages).totalTokens);
		await reopened.close();
	});

	it("gives each of two parallel calls its own sidechain", async () => {
		const store = createStore();
		const parentSession = await Session.create(store);
		const researcher = agentAsTool({
			name: "researcher",
			description: "Researches",
			agent: { initialState: { model: childFaux.getModel() } },
			childStore: sidechainStores(parentSession, { title: (call) => `task ${call.toolCallId}` }),
		});
		parentFaux.setResponses([
			fauxAssistantMessage([
				fauxToolCall("researcher", { input: "one" }, "a"),
				fauxToolCall("researcher", { input: "two" }, "b"),
			]),
			"both",
		]);
		childFaux.setResponses(["first answer", "second answer"]);
		const parent = new Agent({
			store: bindSession(parentSession),
			initialState: { model: parentFaux.getModel(), tools: [researcher] },
		});
		await parent.prompt("go");
		await parentSession.close();
		const sidechains = await listSidechains(store, parentSession.id);
		expect(sidechains.map((info) => info.title).sort()).toEqual(["task a", "task b"]);
		for (const info of sidechains) {
			const child = await Session.open(store, info.sessionId);
			const input = info.title === "task a" ? "one" : "two";
			expect(texts(child.messages())[0]).toBe(input);
			expect(child.header?.parentToolCallId).toBe(info.title?.slice(5));
			await child.close();
		}
	});
});

describe("sidechainStores: bad input", () => {
	it("gives an error result naming bindSession when the parent Agent is not bound to the session", async () => {
		const store = createMemoryTranscriptStore();
		const parentSession = await Session.create(store);
		const researcher = agentAsTool({
			name: "researcher",
			description: "Researches",
			agent: { initialState: { model: childFaux.getModel() } },
			childStore: sidechainStores(parentSession),
		});
		parentFaux.setResponses([fauxAssistantMessage(fauxToolCall("researcher", { input: "q" }, "c1")), "ok"]);
		const parent = new Agent({ initialState: { model: parentFaux.getModel(), tools: [researcher] } });
		await parent.prompt("go");
		const result = parent.state.messages[2] as ToolResultMessage;
		expect(result.isError).toBe(true);
		expect(texts([result])[0]).toBe(
			`Agent tool "researcher": childStore() failed: tool call "c1" is not on the current branch of session ${parentSession.id}: bind the parent Agent to that session (new Agent({ store: bindSession(session) }))`,
		);
		expect(await listSidechains(store, parentSession.id)).toEqual([]);
	});

	it("refuses what is not a Session, and a sidechain for a call the message does not make", async () => {
		expect(() => sidechainStores({} as never)).toThrow("sidechainStores() takes the parent's Session");
		const session = await Session.create(createMemoryTranscriptStore());
		const record = await session.append({ role: "user", content: "hi", timestamp: 1 });
		await expect(session.startSidechain(record.id, { parentToolCallId: "nope" })).rejects.toThrow(
			`Cannot start a sidechain for tool call "nope": message "${record.id}" of session ${session.id} has no such call`,
		);
		await expect(listSidechains(createMemoryTranscriptStore(), "")).rejects.toThrow(
			"listSidechains() takes the parent session's id",
		);
	});
});
