// agentAsTool: a child Agent run as a tool of a parent, on two faux providers (one for the parent's
// model calls, one for the children's), so each side's scripted answers stay in their own queue.
import { type AssistantMessage, type Static, type ToolResultMessage, Type } from "@keel/ai";
import {
	type FauxProviderRegistration,
	type FauxResponse,
	fauxAssistantMessage,
	fauxText,
	fauxToolCall,
	registerFauxProvider,
} from "@keel/ai/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
	ABORTED_TOOL_TEXT,
	Agent,
	type AgentEvent,
	type AgentMessage,
	type AgentTool,
	type AgentToolDetails,
	agentAsTool,
	sumUsage,
} from "../src/index.js";

const COST = { input: 3, output: 15, cacheRead: 0, cacheWrite: 0 };
let parentFaux: FauxProviderRegistration<"faux-parent">;
let childFaux: FauxProviderRegistration<"faux-child">;

beforeEach(() => {
	parentFaux = registerFauxProvider({ api: "faux-parent", models: [{ id: "parent-model", cost: COST }] });
	childFaux = registerFauxProvider({ api: "faux-child", models: [{ id: "child-model", cost: COST }] });
});
afterEach(() => {
	parentFaux.unregister();
	childFaux.unregister();
});

function parentAgent(tools: AgentTool[]): Agent {
	return new Agent({ initialState: { model: parentFaux.getModel(), tools } });
}

function researcher(overrides: Partial<Parameters<typeof agentAsTool>[0]> = {}) {
	return agentAsTool({
		name: "researcher",
		description: "Researches a question and answers it",
		agent: { initialState: { model: childFaux.getModel(), systemPrompt: "You research." } },
		...overrides,
	});
}

function toolResults(agent: Agent): ToolResultMessage[] {
	return agent.state.messages.filter(
		(message) => (message as { role: string }).role === "toolResult",
	) as ToolResultMessage[];
}

function textOfContent(message: { content: unknown }): string {
	const content = message.content as { type: string; text?: string }[];
	return content.map((block) => block.text ?? "").join("");
}

function lastText(agent: Agent): string {
	const messages = agent.state.messages;
	return textOfContent(messages[messages.length - 1] as AssistantMessage);
}

describe("agentAsTool: the child's answer", () => {
	it("answers the parent's call with the child's final text, prompted with the call's input", async () => {
		parentFaux.setResponses([
			fauxAssistantMessage(fauxToolCall("researcher", { input: "How tall is the Eiffel Tower?" })),
			"It is 330 m tall.",
		]);
		childFaux.setResponses(["The Eiffel Tower is 330 m tall."]);
		const parent = parentAgent([researcher()]);
		await parent.prompt("Ask the researcher");

		const [result] = toolResults(parent);
		expect(result.isError).toBe(false);
		expect(textOfContent(result)).toBe("The Eiffel Tower is 330 m tall.");
		const childRequest = childFaux.state.requests[0];
		expect(childRequest.context.systemPrompt).toBe("You research.");
		expect(childRequest.context.messages.map((message) => message.role)).toEqual(["user"]);
		expect(JSON.stringify(childRequest.context.messages[0].content)).toContain("How tall is the Eiffel Tower?");
		expect(lastText(parent)).toBe("It is 330 m tall.");
		expect((result.details as AgentToolDetails).kind).toBe("result");
		expect(result.details).toMatchObject({ kind: "result", turns: 1 });
	});

	it("maps custom parameters to the prompt and the child's run to the result", async () => {
		const parameters = Type.Object({ topic: Type.String(), words: Type.Number() });
		const tool = agentAsTool({
			name: "writer",
			description: "Writes about a topic",
			parameters,
			agent: { initialState: { model: childFaux.getModel() } },
			prompt: (args: Static<typeof parameters>) => `Write ${args.words} words about ${args.topic}`,
			result: (run) => `${run.text} (${run.turns} turn, ${run.messages.length} messages)`,
		});
		parentFaux.setResponses([fauxAssistantMessage(fauxToolCall("writer", { topic: "tides", words: 5 })), "ok"]);
		childFaux.setResponses(["The moon pulls the sea."]);
		const parent = parentAgent([tool]);
		await parent.prompt("go");
		expect(JSON.stringify(childFaux.state.requests[0].context.messages[0].content)).toContain(
			"Write 5 words about tides",
		);
		expect(textOfContent(toolResults(parent)[0])).toBe("The moon pulls the sea. (1 turn, 2 messages)");
	});

	it("makes a new child per call, so parallel calls of one tool each get their own answer", async () => {
		parentFaux.setResponses([
			fauxAssistantMessage([
				fauxToolCall("researcher", { input: "first" }, "call-a"),
				fauxToolCall("researcher", { input: "second" }, "call-b"),
			]),
			"both done",
		]);
		const echo: FauxResponse = (context) =>
			`answer to ${textOfContent(context.messages[0] as never) || JSON.stringify(context.messages[0].content)}`;
		childFaux.setResponses([echo, echo]);
		const made: Agent[] = [];
		const tool = researcher({
			agent: () => {
				const child = new Agent({ initialState: { model: childFaux.getModel() } });
				made.push(child);
				return child;
			},
		});
		const parent = parentAgent([tool]);
		await parent.prompt("go");
		const results = toolResults(parent);
		expect(made).toHaveLength(2);
		expect(made[0]).not.toBe(made[1]);
		expect(results.map((result) => result.toolCallId)).toEqual(["call-a", "call-b"]);
		expect(textOfContent(results[0])).toContain("first");
		expect(textOfContent(results[1])).toContain("second");
	});
});

describe("agentAsTool: the child's events reach the parent's listeners", () => {
	it("forwards every child event as a tool_execution_update whose details carry the event", async () => {
		parentFaux.setResponses([fauxAssistantMessage(fauxToolCall("researcher", { input: "q" })), "done"]);
		childFaux.setResponses(["A long answer, streamed in chunks."]);
		const parent = parentAgent([researcher()]);
		const updates: Extract<AgentEvent, { type: "tool_execution_update" }>[] = [];
		parent.subscribe((event) => {
			if (event.type === "tool_execution_update") updates.push(event);
		});
		await parent.prompt("go");

		const childEvents = updates.map((update) => {
			const details = update.partialResult.details as AgentToolDetails;
			expect(details.kind).toBe("progress");
			return details.kind === "progress" ? details : undefined;
		});
		const types = childEvents.map((details) => details?.event.type);
		expect(types[0]).toBe("agent_start");
		expect(types[types.length - 1]).toBe("agent_end");
		expect(types).toContain("message_update");
		expect(childEvents.every((details) => details?.depth === 1)).toBe(true);
		expect(updates.every((update) => update.toolName === "researcher")).toBe(true);
		// The readable summary of a streaming answer is the text so far.
		const streamed = updates
			.filter((update) => (update.partialResult.details as { event: AgentEvent }).event.type === "message_update")
			.map((update) => textOfContent(update.partialResult));
		expect(streamed[streamed.length - 1]).toBe("A long answer, streamed in chunks.");
		expect(streamed[0].length).toBeLessThan(streamed[streamed.length - 1].length);
	});

	it("forwards nothing with progress: false, and only the chosen events with a filter", async () => {
		for (const [progress, expected] of [
			[false, []],
			[(event: AgentEvent) => event.type === "agent_end", ["agent_end"]],
		] as const) {
			parentFaux.setResponses([fauxAssistantMessage(fauxToolCall("researcher", { input: "q" })), "done"]);
			childFaux.setResponses(["answer"]);
			const parent = parentAgent([researcher({ progress })]);
			const seen: string[] = [];
			parent.subscribe((event) => {
				if (event.type === "tool_execution_update")
					seen.push((event.partialResult.details as { event: AgentEvent }).event.type);
			});
			await parent.prompt("go");
			expect(seen).toEqual(expected);
			expect(textOfContent(toolResults(parent)[0])).toBe("answer");
		}
	});
});

describe("agentAsTool: usage and cost", () => {
	it("carries the child's usage on the tool result, and sumUsage adds it into the parent's total", async () => {
		parentFaux.setResponses([fauxAssistantMessage(fauxToolCall("researcher", { input: "q" })), "done"]);
		childFaux.setResponses([fauxAssistantMessage(fauxToolCall("lookup", {})), "The answer, after one lookup."]);
		const lookup: AgentTool = {
			name: "lookup",
			label: "Lookup",
			description: "Looks up",
			parameters: Type.Object({}),
			execute: async () => ({ content: [{ type: "text", text: "found it" }], details: {} }),
		};
		const tool = researcher({ agent: { initialState: { model: childFaux.getModel(), tools: [lookup] } } });
		const parent = parentAgent([tool]);
		let childMessages: AgentMessage[] = [];
		parent.subscribe((event) => {
			if (event.type === "tool_execution_update") {
				const child = (event.partialResult.details as { event: AgentEvent }).event;
				if (child.type === "agent_end") childMessages = child.messages;
			}
		});
		await parent.prompt("go");

		const [result] = toolResults(parent);
		const childUsage = sumUsage(childMessages);
		expect(childUsage.totalTokens).toBeGreaterThan(0);
		expect(childUsage.cost.total).toBeGreaterThan(0);
		expect(result.usage).toEqual(childUsage);
		expect(result.details).toMatchObject({ kind: "result", turns: 2, usage: childUsage });

		const parentOwn = sumUsage(
			parent.state.messages.filter((message) => (message as { role: string }).role === "assistant"),
		);
		const total = sumUsage(parent.state.messages);
		expect(total.totalTokens).toBe(parentOwn.totalTokens + childUsage.totalTokens);
		expect(total.cost.total).toBeCloseTo(parentOwn.cost.total + childUsage.cost.total, 12);
	});

	it("rolls a grandchild's usage up through the child into the parent's total", async () => {
		const grandchildModel = childFaux.getModel();
		const inner = agentAsTool({
			name: "inner",
			description: "The inner agent",
			agent: { initialState: { model: grandchildModel } },
		});
		const outer = agentAsTool({
			name: "outer",
			description: "The outer agent",
			agent: { initialState: { model: childFaux.getModel(), tools: [inner] } },
		});
		parentFaux.setResponses([fauxAssistantMessage(fauxToolCall("outer", { input: "q" })), "done"]);
		// The child calls inner, the grandchild answers, the child answers.
		childFaux.setResponses([
			fauxAssistantMessage(fauxToolCall("inner", { input: "deeper" })),
			"grandchild's answer",
			"child's answer",
		]);
		const parent = parentAgent([outer]);
		let childMessages: AgentMessage[] = [];
		parent.subscribe((event) => {
			if (event.type !== "tool_execution_update") return;
			const details = event.partialResult.details as AgentToolDetails;
			if (details.kind === "progress" && details.depth === 1 && details.event.type === "agent_end") {
				childMessages = details.event.messages;
			}
		});
		await parent.prompt("go");

		const [outerResult] = toolResults(parent);
		expect(textOfContent(outerResult)).toBe("child's answer");
		expect(childFaux.state.requests).toHaveLength(3);
		// The child's transcript holds inner's result, whose usage is the grandchild's call.
		const innerResult = childMessages.find(
			(message) => (message as { role: string }).role === "toolResult",
		) as ToolResultMessage;
		expect(innerResult.usage?.totalTokens).toBeGreaterThan(0);
		const childOwn = sumUsage(childMessages.filter((message) => (message as { role: string }).role === "assistant"));
		expect(outerResult.usage?.totalTokens).toBe(childOwn.totalTokens + (innerResult.usage?.totalTokens ?? 0));
		const parentOwn = sumUsage(
			parent.state.messages.filter((message) => (message as { role: string }).role === "assistant"),
		);
		expect(sumUsage(parent.state.messages).totalTokens).toBe(
			parentOwn.totalTokens + (outerResult.usage?.totalTokens ?? 0),
		);
	});
});

describe("agentAsTool: abort", () => {
	it("aborts a child stuck in a long tool call when the parent is aborted, and nothing hangs", async () => {
		let slowSignal: AbortSignal | undefined;
		const slow: AgentTool = {
			name: "slow",
			label: "Slow",
			description: "Takes forever",
			parameters: Type.Object({}),
			execute: (_id, _args, signal) => {
				slowSignal = signal;
				// Ends only when aborted.
				return new Promise((_resolve, reject) => signal?.addEventListener("abort", () => reject(new Error("stopped"))));
			},
		};
		let child: Agent | undefined;
		const tool = researcher({
			agent: ({ store }) => {
				child = new Agent({ store, initialState: { model: childFaux.getModel(), tools: [slow] } });
				return child;
			},
		});
		parentFaux.setResponses([fauxAssistantMessage(fauxToolCall("researcher", { input: "q" }))]);
		childFaux.setResponses([fauxAssistantMessage(fauxToolCall("slow", {}))]);
		const parent = parentAgent([tool]);
		parent.subscribe((event) => {
			if (event.type !== "tool_execution_update") return;
			const inner = (event.partialResult.details as { event: AgentEvent }).event;
			if (inner.type === "tool_execution_start" && inner.toolName === "slow") parent.abort();
		});
		await parent.prompt("go");

		const [result] = toolResults(parent);
		expect(result.isError).toBe(true);
		expect(textOfContent(result)).toBe(ABORTED_TOOL_TEXT);
		expect(slowSignal?.aborted).toBe(true);
		await child?.waitForIdle();
		expect(child?.state.isStreaming).toBe(false);
		// The child's own slow call was aborted, and its run ended as aborted.
		const childMessages = child?.state.messages ?? [];
		const childToolResult = childMessages.find((message) => (message as { role: string }).role === "toolResult");
		expect(textOfContent(childToolResult as ToolResultMessage)).toBe(ABORTED_TOOL_TEXT);
		expect((childMessages.at(-1) as AssistantMessage).stopReason).toBe("aborted");
	});

	it("aborts a child stuck in its model call when the parent is aborted", async () => {
		let child: Agent | undefined;
		const tool = researcher({
			agent: () => {
				child = new Agent({ initialState: { model: childFaux.getModel() } });
				return child;
			},
		});
		parentFaux.setResponses([fauxAssistantMessage(fauxToolCall("researcher", { input: "q" }))]);
		let childCalled!: () => void;
		const called = new Promise<void>((resolve) => {
			childCalled = resolve;
		});
		// The child's model never answers.
		childFaux.setResponses([
			() => {
				childCalled();
				return new Promise<string>(() => {});
			},
		]);
		const parent = parentAgent([tool]);
		const running = parent.prompt("go");
		await called;
		parent.abort();
		await running;
		expect(toolResults(parent)[0].isError).toBe(true);
		await child?.waitForIdle();
		const childLast = child?.state.messages.at(-1) as AssistantMessage;
		expect(childLast.stopReason).toBe("aborted");
	});
});

describe("agentAsTool: a child that fails gives the parent an error result", () => {
	it("turns a child's model error into an error result with the child's usage, and the parent goes on", async () => {
		parentFaux.setResponses([
			fauxAssistantMessage(fauxToolCall("researcher", { input: "q" })),
			"The researcher failed, so I answer myself.",
		]);
		childFaux.setResponses([fauxAssistantMessage("partial", { stopReason: "error", errorMessage: "529 overloaded" })]);
		const parent = parentAgent([researcher()]);
		await parent.prompt("go");
		const [result] = toolResults(parent);
		expect(result.isError).toBe(true);
		expect(textOfContent(result)).toBe('Agent "researcher" failed: 529 overloaded');
		expect(result.usage?.totalTokens).toBeGreaterThan(0);
		expect(lastText(parent)).toBe("The researcher failed, so I answer myself.");
		expect(parent.state.errorMessage).toBeUndefined();
	});

	it("lets a child whose own tool throws go on: the child's model reads the error, the parent gets its answer", async () => {
		const broken: AgentTool = {
			name: "broken",
			label: "Broken",
			description: "Throws",
			parameters: Type.Object({}),
			execute: async () => {
				throw new Error("disk on fire");
			},
		};
		parentFaux.setResponses([fauxAssistantMessage(fauxToolCall("researcher", { input: "q" })), "done"]);
		childFaux.setResponses([fauxAssistantMessage(fauxToolCall("broken", {})), "The tool failed: disk on fire."]);
		const parent = parentAgent([
			researcher({ agent: { initialState: { model: childFaux.getModel(), tools: [broken] } } }),
		]);
		await parent.prompt("go");
		const [result] = toolResults(parent);
		expect(result.isError).toBe(false);
		expect(textOfContent(result)).toBe("The tool failed: disk on fire.");
	});

	it("ends a child still calling tools after maxTurns with an error result naming the limit", async () => {
		const again: AgentTool = {
			name: "again",
			label: "Again",
			description: "Once more",
			parameters: Type.Object({}),
			execute: async () => ({ content: [{ type: "text", text: "more" }], details: {} }),
		};
		parentFaux.setResponses([fauxAssistantMessage(fauxToolCall("researcher", { input: "q" })), "gave up"]);
		const loop = fauxAssistantMessage(fauxToolCall("again", {}));
		childFaux.setResponses([loop, loop, loop, loop, loop]);
		const parent = parentAgent([
			researcher({ maxTurns: 2, agent: { initialState: { model: childFaux.getModel(), tools: [again] } } }),
		]);
		await parent.prompt("go");
		const [result] = toolResults(parent);
		expect(result.isError).toBe(true);
		expect(textOfContent(result)).toBe(
			'Agent "researcher" did not finish within maxTurns (2): it was still calling tools',
		);
		expect(childFaux.state.requests).toHaveLength(2);
		expect(result.details).toMatchObject({ kind: "result", turns: 2 });
		expect(lastText(parent)).toBe("gave up");
	});

	it("gives an error result when the child stops to wait for a tool approval, since nobody can decide it", async () => {
		const guarded: AgentTool = {
			name: "delete_files",
			label: "Delete",
			description: "Deletes files",
			parameters: Type.Object({}),
			requiresApproval: true,
			execute: async () => ({ content: [{ type: "text", text: "deleted" }], details: {} }),
		};
		parentFaux.setResponses([fauxAssistantMessage(fauxToolCall("researcher", { input: "q" })), "went on"]);
		childFaux.setResponses([fauxAssistantMessage(fauxToolCall("delete_files", {}))]);
		const parent = parentAgent([
			researcher({ agent: { initialState: { model: childFaux.getModel(), tools: [guarded] } } }),
		]);
		await parent.prompt("go");
		const [result] = toolResults(parent);
		expect(result.isError).toBe(true);
		expect(textOfContent(result)).toBe(
			'Agent "researcher" stopped to wait for approval of delete_files: an agent run as a tool cannot wait for approvals; decide them with the child\'s approvalPolicy',
		);
		expect(lastText(parent)).toBe("went on");
	});

	it("reports a failing agent(), prompt() or result() function as an error result naming it", async () => {
		const cases: [Partial<Parameters<typeof agentAsTool>[0]>, string][] = [
			[
				{
					agent: () => {
						throw new Error("no model configured");
					},
				},
				'Agent tool "researcher": agent() failed: no model configured',
			],
			[{ agent: () => ({}) as Agent }, 'Agent tool "researcher": agent() must return an Agent, got Object'],
			[
				{ prompt: () => 42 as unknown as string },
				'Agent tool "researcher": prompt() must return a string or messages, got number',
			],
			[
				{
					result: () => {
						throw new Error("bad mapping");
					},
				},
				'Agent tool "researcher": result() failed: bad mapping',
			],
			[
				{ childStore: () => ({}) as never },
				'Agent tool "researcher": childStore() must return { store: AgentStore, sessionId?, close? }',
			],
		];
		for (const [overrides, expected] of cases) {
			parentFaux.setResponses([fauxAssistantMessage(fauxToolCall("researcher", { input: "q" })), "went on"]);
			childFaux.setResponses(["child answer"]);
			const parent = parentAgent([researcher(overrides)]);
			await parent.prompt("go");
			const [result] = toolResults(parent);
			expect(result.isError, expected).toBe(true);
			expect(textOfContent(result)).toBe(expected);
			expect(lastText(parent)).toBe("went on");
		}
	});

	it("refuses an agent() that ignores the call's store, so no transcript is silently lost", async () => {
		const store = {
			open: () => ({ messages: [], queued: [] }),
			view: () => ({ messages: [] }),
			append: async () => {},
			recordQueue() {},
		};
		parentFaux.setResponses([fauxAssistantMessage(fauxToolCall("researcher", { input: "q" })), "ok"]);
		let closed = 0;
		const tool = researcher({
			childStore: () => ({ store, close: () => void closed++ }),
			agent: () => new Agent({ initialState: { model: childFaux.getModel() } }),
		});
		const parent = parentAgent([tool]);
		await parent.prompt("go");
		expect(textOfContent(toolResults(parent)[0])).toContain("agent() must give the Agent the store of the call");
		expect(closed).toBe(1);
	});
});

describe("agentAsTool: nesting depth", () => {
	it("stops an agent that has itself among its tools at maxDepth with a clear error", async () => {
		// Every child model call: call `recurse` unless the last message is its result, then answer.
		const recurseOrAnswer: FauxResponse = (context) => {
			const last = context.messages[context.messages.length - 1];
			return last.role === "toolResult"
				? `answer after: ${textOfContent(last)}`
				: fauxAssistantMessage(fauxToolCall("recurse", { input: "again" }));
		};
		const depths: number[] = [];
		const recurse: AgentTool<typeof import("../src/index.js").AGENT_TOOL_PARAMETERS, AgentToolDetails> = agentAsTool({
			name: "recurse",
			description: "Calls itself",
			maxDepth: 2,
			agent: ({ depth }) => {
				depths.push(depth);
				return new Agent({ initialState: { model: childFaux.getModel(), tools: [recurse] } });
			},
		});
		parentFaux.setResponses([fauxAssistantMessage(fauxToolCall("recurse", { input: "start" })), "done"]);
		childFaux.setResponses(Array.from({ length: 10 }, () => recurseOrAnswer));
		const parent = parentAgent([recurse]);
		await parent.prompt("go");

		expect(depths).toEqual([1, 2]);
		const [result] = toolResults(parent);
		expect(result.isError).toBe(false);
		// The depth-2 child's call was refused; it answered with the refusal, and the depth-1 child with that.
		expect(textOfContent(result)).toContain(
			'Agent tool "recurse" was not run: it would nest agents 3 deep, more than maxDepth (2)',
		);
		expect(textOfContent(result)).toMatch(/^answer after: answer after: /);
	});
});

describe("agentAsTool: bad options", () => {
	const agent = { initialState: {} };
	it.each([
		[undefined, "agentAsTool() takes an options object, got undefined"],
		[{ name: "", description: "d", agent }, 'agentAsTool(): name must be a non-empty string, got ""'],
		[{ name: "a", description: " ", agent }, 'agentAsTool() "a": description must be a non-empty string'],
		[
			{ name: "a", description: "d" },
			'agentAsTool() "a": agent must be Agent options or a function returning a new Agent, got undefined',
		],
		[{ name: "a", description: "d", agent: "an Agent instance" }, 'agentAsTool() "a": agent is an Agent instance'],
		[
			{ name: "a", description: "d", agent: { store: {} } },
			'agentAsTool() "a": agent options must not carry a store (every call needs its own); give childStore instead',
		],
		[
			{ name: "a", description: "d", agent, maxTurns: 0 },
			'agentAsTool() "a": maxTurns must be a positive integer, got 0',
		],
		[
			{ name: "a", description: "d", agent, maxDepth: 1.5 },
			'agentAsTool() "a": maxDepth must be a positive integer, got 1.5',
		],
		[{ name: "a", description: "d", agent, prompt: "x" }, 'agentAsTool() "a": prompt must be a function, got string'],
		[
			{ name: "a", description: "d", agent, progress: "all" },
			'agentAsTool() "a": progress must be a boolean or a function of the event',
		],
	])("refuses %j with a clear error", (given, message) => {
		// An Agent instance is made here: the test's title prints the options.
		const options =
			(given as { agent?: unknown } | undefined)?.agent === "an Agent instance"
				? { ...given, agent: new Agent() }
				: given;
		expect(() => agentAsTool(options as never)).toThrow(message);
	});

	it("sumUsage refuses what is not an array and counts malformed usage as zero", () => {
		expect(() => sumUsage(undefined as never)).toThrow("sumUsage() takes an array of messages, got undefined");
		expect(
			sumUsage([{ role: "assistant", usage: { input: "many" } } as never, fauxText("x") as never]).totalTokens,
		).toBe(0);
	});
});
