// Many Agent runs with faults, steering (interrupting or not), follow-ups and aborts injected at
// seeded random points.
// Each run must end with a well-formed event tree, a valid transcript and an idle agent, and every
// model call must be sent a conversation each wire API accepts.
import { type AssistantMessage, type Message, type ToolCall, type ToolResultMessage, Type } from "@keel/ai";
import { describe, expect, it } from "vitest";
import { toolPairingProblems } from "../../ai/test/helpers/tool-pairing.js";
import {
	Agent,
	type AgentEvent,
	type AgentMessage,
	type AgentTool,
	isInterruptedMessage,
	type StreamFn,
} from "../src/index.js";
import { type ScriptBlock, type ScriptedResponse, scriptedStreamFn, testModel, user } from "./helpers.js";

/** mulberry32: a tiny deterministic generator, so a failure can be replayed from its seed. */
function createRandom(seed: number) {
	let state = seed >>> 0;
	const next = () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let value = state;
		value = Math.imul(value ^ (value >>> 15), value | 1);
		value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
		return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
	};
	return {
		chance: (probability: number) => next() < probability,
		integer: (max: number) => Math.floor(next() * max),
		pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)],
	};
}

type Random = ReturnType<typeof createRandom>;

const nextTick = () => new Promise<void>((resolve) => setImmediate(resolve));

function buildTools(random: Random, agent: () => Agent): AgentTool[] {
	const parameters = Type.Object({ value: Type.String() });
	const reply = (text: string) => ({ content: [{ type: "text" as const, text }], details: {} });
	return [
		{ name: "quick", label: "quick", description: "", parameters, execute: async () => reply("quick") },
		{
			name: "failing",
			label: "failing",
			description: "",
			parameters,
			execute: async () => {
				throw new Error("tool failed");
			},
		},
		{
			// Takes a few ticks and ignores its signal entirely.
			name: "stubborn",
			label: "stubborn",
			description: "",
			parameters,
			execute: async () => {
				for (let tick = 0; tick < 3; tick++) await nextTick();
				return reply("stubborn");
			},
		},
		{
			// Queues a steering message while it runs, as a user typing would.
			name: "typing",
			label: "typing",
			description: "",
			parameters,
			execute: async (_id, _params, _signal, onUpdate) => {
				onUpdate?.(reply("typing…"));
				if (random.chance(0.5)) agent().steer(user("steer"));
				await nextTick();
				return reply("typed");
			},
		},
	];
}

function randomResponse(random: Random): ScriptedResponse {
	const roll = random.integer(10);
	if (roll >= 1 && roll <= 3) return { blocks: [{ text: "final answer" }] };
	const blocks: ScriptBlock[] = [{ text: "let me check" }];
	const count = (roll === 0 ? 0 : 1) + random.integer(3);
	for (let index = 0; index < count; index++) {
		const name = random.pick(["quick", "failing", "stubborn", "typing", "missing"]);
		const args = random.chance(0.1) ? {} : { value: "v" };
		blocks.push({ toolCall: { name, arguments: args } });
	}
	// A provider error, sometimes after tool call blocks: those calls are never run.
	if (roll === 0) return { blocks, stopReason: "error", errorMessage: "provider error" };
	return { blocks };
}

function checkEventTree(events: AgentEvent[]): void {
	expect(events[0]?.type).toBe("agent_start");
	expect(events.at(-1)?.type).toBe("agent_end");
	expect(events.filter((event) => event.type === "agent_end")).toHaveLength(1);
	let turnOpen = false;
	let messageOpen = false;
	const running = new Set<string>();
	for (const event of events.slice(1, -1)) {
		if (event.type === "turn_start") {
			expect(turnOpen).toBe(false);
			turnOpen = true;
		} else if (event.type === "turn_end") {
			expect(turnOpen && !messageOpen && running.size === 0).toBe(true);
			turnOpen = false;
		} else {
			expect(turnOpen).toBe(true);
		}
		if (event.type === "message_start") {
			expect(messageOpen).toBe(false);
			messageOpen = true;
		} else if (event.type === "message_update") {
			expect(messageOpen).toBe(true);
		} else if (event.type === "message_end") {
			expect(messageOpen).toBe(true);
			messageOpen = false;
		} else if (event.type === "tool_execution_start") {
			expect(running.has(event.toolCallId)).toBe(false);
			running.add(event.toolCallId);
		} else if (event.type === "tool_execution_update") {
			expect(running.has(event.toolCallId)).toBe(true);
		} else if (event.type === "tool_execution_end") {
			expect(running.delete(event.toolCallId)).toBe(true);
		}
	}
	expect(turnOpen).toBe(false);
}

/** Every tool call of an assistant message, failed and aborted ones included, has exactly one result, in call order. */
function checkTranscript(messages: AgentMessage[]): void {
	for (let index = 0; index < messages.length; index++) {
		const message = messages[index] as Message;
		if (message.role !== "assistant") continue;
		const calls = message.content.filter((block): block is ToolCall => block.type === "toolCall");
		const results: ToolResultMessage[] = [];
		for (let after = index + 1; after < messages.length; after++) {
			const next = messages[after] as Message;
			if (next.role !== "toolResult") break;
			results.push(next);
		}
		expect(results.map((result) => result.toolCallId)).toEqual(calls.map((call) => call.id));
	}
}

describe("randomised runs", () => {
	it("always end with a valid transcript, a well-formed event tree and an idle agent", async () => {
		let runs = 0;
		const pairingProblems: string[] = [];
		const seen = {
			aborted: 0,
			skipped: 0,
			failedCallbacks: 0,
			toolErrors: 0,
			followUps: 0,
			blocked: 0,
			interrupted: 0,
		};
		for (let seed = 1; seed <= 60; seed++) {
			const random = createRandom(seed);
			let agent!: Agent;
			const scripted = scriptedStreamFn(Array.from({ length: 200 }, () => () => randomResponse(random)));
			const streamFn: StreamFn = (model, context, options) => {
				// What the model is sent must be a conversation every wire API accepts.
				pairingProblems.push(...toolPairingProblems(context));
				if (random.chance(0.03)) throw new Error("transport exploded");
				return scripted(model, context, options);
			};
			agent = new Agent({
				initialState: { model: testModel, tools: buildTools(random, () => agent) },
				streamFn,
				toolExecution: random.pick(["parallel", "sequential"] as const),
				steeringCheck: random.pick(["after-each-tool", "after-turn"] as const),
				steeringMode: random.pick(["one-at-a-time", "all"] as const),
				convertToLlm: (messages) => {
					if (random.chance(0.02)) throw new Error("convert failed");
					return messages as Message[];
				},
				getApiKey: async () => {
					if (random.chance(0.02)) throw new Error("key store failed");
					return "key";
				},
				beforeToolCall: async () => {
					if (random.chance(0.05)) throw new Error("policy failed");
					return random.chance(0.05) ? { block: true, reason: "blocked" } : undefined;
				},
				afterToolCall: () => {
					if (random.chance(0.05)) throw new Error("audit failed");
					return undefined;
				},
				onListenerError: () => {},
			});
			// A listener that sometimes throws must not change anything.
			agent.subscribe(() => {
				if (random.chance(0.02)) throw new Error("listener failed");
			});
			for (let prompt = 0; prompt < 5; prompt++) {
				const events: AgentEvent[] = [];
				const abortAfter = random.chance(0.3) ? 1 + random.integer(25) : -1;
				const interruptAt = random.chance(0.3) ? 1 + random.integer(25) : -1;
				const unsubscribe = agent.subscribe((event) => {
					events.push(event);
					if (events.length === abortAfter) agent.abort();
					if (events.length === interruptAt) agent.steer(user("interrupt"), { interrupt: true });
				});
				if (random.chance(0.3)) agent.followUp(user("follow-up"));
				const before = agent.state.messages.length;
				await agent.prompt(`prompt ${prompt}`);
				unsubscribe();
				runs++;

				const context = `seed ${seed}, prompt ${prompt}`;
				expect(agent.state.isStreaming, context).toBe(false);
				expect(agent.state.pendingToolCalls.size, context).toBe(0);
				expect(agent.state.streamingMessage, context).toBeNull();
				checkEventTree(events);
				checkTranscript(agent.state.messages);
				// The transcript holds exactly the messages the run announced with message_end.
				const ended = events.filter((event) => event.type === "message_end").map((event) => event.message);
				expect(agent.state.messages.slice(before)).toEqual(ended);
				const last = agent.state.messages.at(-1) as AssistantMessage;
				if (last.role === "assistant" && last.stopReason === "error") expect(last.errorMessage).toBeTruthy();
				for (const message of agent.state.messages.slice(before) as Message[]) {
					if (message.role === "assistant" && message.stopReason === "aborted") seen.aborted++;
					if (message.role === "assistant" && /failed|exploded/.test(message.errorMessage ?? ""))
						seen.failedCallbacks++;
					if (message.role === "toolResult" && message.isError) seen.toolErrors++;
					if (message.role === "toolResult" && JSON.stringify(message.content).includes("Skipped")) seen.skipped++;
					if (message.role === "user" && message.content === "follow-up") seen.followUps++;
					if (message.role === "toolResult" && JSON.stringify(message.content).includes("blocked")) seen.blocked++;
					if (isInterruptedMessage(message) || JSON.stringify(message.content).includes("interrupted by a steering"))
						seen.interrupted++;
				}
				agent.clearAllQueues();
			}
		}
		expect(runs).toBe(300);
		expect(pairingProblems).toEqual([]);
		// The faults really happened: every kind is exercised many times.
		for (const [kind, count] of Object.entries(seen)) expect(count, kind).toBeGreaterThan(5);
	});
});
