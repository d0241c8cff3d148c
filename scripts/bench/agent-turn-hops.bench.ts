// The hops of one agent turn, measured (the table in docs/architecture.md, "Hops per turn"): V8's
// precise coverage counts every function call of packages/agent/src while an Agent runs 20, then 40
// tool-call turns; the functions whose count grew with the turns are the ones a turn enters. Shown
// for an Agent without a store and for one bound to a session (in memory, so no disk in the way).
import { Session as InspectorSession } from "node:inspector/promises";
import { register } from "node:module";
import { pathToFileURL } from "node:url";
import { printTable } from "./measure.js";

// The agent sources import "@keel/ai"; map it to the ai sources so the bench needs no build.
const aiSource = pathToFileURL(new URL("../../packages/ai/src/index.ts", import.meta.url).pathname).href;
register(
	`data:text/javascript,${encodeURIComponent(`
export async function resolve(specifier, context, next) {
	if (specifier === "@keel/ai") return { url: ${JSON.stringify(aiSource)}, shortCircuit: true };
	return next(specifier, context);
}`)}`,
);

const agentSource = pathToFileURL(new URL("../../packages/agent/src/", import.meta.url).pathname).href;

interface FunctionCoverage {
	functionName: string;
	ranges: { startOffset: number; count: number }[];
}

export default async function (): Promise<void> {
	const ai = await import("../../packages/ai/src/index.js");
	const agentCore = await import("../../packages/agent/src/index.js");
	const sessions = await import("../../packages/agent/src/session/index.js");
	type StreamFn = import("../../packages/agent/src/index.js").StreamFn;
	type AgentTool = import("../../packages/agent/src/index.js").AgentTool;

	const model = {
		id: "hops",
		name: "hops",
		api: "hops",
		provider: "hops",
		baseUrl: "",
		reasoning: false,
		input: ["text" as const],
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
		contextWindow: 1_000_000,
		maxTokens: 1000,
	};
	/** A tool call for each of the first `turns` responses, then a text answer. */
	const createStreamFn = (turns: number): StreamFn => {
		let calls = 0;
		return () => {
			calls++;
			const stream = ai.createAssistantMessageEventStream();
			const builder = new ai.AssistantMessageBuilder(model, (event) => stream.push(event));
			if (calls <= turns) {
				const index = builder.startToolCall(`call_${calls}`, "noop");
				builder.appendToolCallArguments(index, JSON.stringify({ value: "x" }));
				builder.endToolCall(index);
			} else {
				const index = builder.startText();
				builder.appendText(index, "done");
				builder.endText(index);
			}
			builder.finish("stop");
			return stream;
		};
	};
	const noop: AgentTool = {
		name: "noop",
		label: "noop",
		description: "does nothing",
		parameters: ai.Type.Object({ value: ai.Type.String() }),
		execute: async () => ({ content: [{ type: "text", text: "ok" }], details: {} }),
	};
	const runAgent = async (turns: number, withSession: boolean) => {
		const store = withSession
			? sessions.bindSession(await sessions.Session.create(sessions.createMemoryTranscriptStore()))
			: undefined;
		const agent = new agentCore.Agent({
			initialState: { model, tools: [noop] },
			streamFn: createStreamFn(turns),
			store,
		});
		agent.subscribe(() => {});
		await agent.prompt("go");
	};

	const inspector = new InspectorSession();
	inspector.connect();
	await inspector.post("Profiler.enable");
	await inspector.post("Profiler.startPreciseCoverage", { callCount: true, detailed: false });
	/** Calls per agent function (by file and position) during `task`. */
	const countCalls = async (task: () => Promise<void>): Promise<Map<string, number>> => {
		await inspector.post("Profiler.takePreciseCoverage"); // resets the counters
		await task();
		const { result } = (await inspector.post("Profiler.takePreciseCoverage")) as {
			result: { url: string; functions: FunctionCoverage[] }[];
		};
		const calls = new Map<string, number>();
		for (const script of result) {
			if (!script.url.startsWith(agentSource)) continue;
			const file = script.url.slice(agentSource.length);
			for (const fn of script.functions) {
				// The module's top level is not a hop.
				if (fn.ranges[0].startOffset === 0 && fn.functionName === "") continue;
				if (fn.ranges[0].count > 0) {
					calls.set(`${file}#${fn.ranges[0].startOffset}#${fn.functionName || "(anonymous)"}`, fn.ranges[0].count);
				}
			}
		}
		return calls;
	};

	const rows = [];
	for (const withSession of [false, true]) {
		// Warm up, so that lazily compiled functions are all known before counting.
		await runAgent(5, withSession);
		const twenty = await countCalls(() => runAgent(20, withSession));
		const forty = await countCalls(() => runAgent(40, withSession));
		const perTurn = [...forty].filter(([key, count]) => count > (twenty.get(key) ?? 0));
		// HOPS_LIST=1 prints every function a turn enters, with its calls per turn.
		if (process.env.HOPS_LIST) {
			for (const [key, count] of perTurn)
				console.log(`${withSession ? "store" : "plain"} ${key} ${(count - (twenty.get(key) ?? 0)) / 20}`);
		}
		const files = new Map<string, number>();
		let entries = 0;
		for (const [key, count] of perTurn) {
			const file = key.slice(0, key.indexOf("#"));
			files.set(file, (files.get(file) ?? 0) + 1);
			entries += count - (twenty.get(key) ?? 0);
		}
		rows.push({
			path: withSession ? "Agent.prompt with bindSession(memory session)" : "Agent.prompt, no store",
			functions: perTurn.length,
			files: files.size,
			"function entries per turn": entries / 20,
			"functions by file": [...files]
				.sort((a, b) => b[1] - a[1])
				.map(([file, count]) => `${file} ${count}`)
				.join(", "),
		});
	}
	await inspector.post("Profiler.stopPreciseCoverage");
	inspector.disconnect();
	printTable(rows);
}
