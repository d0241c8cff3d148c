// Tracing of agent runs: a span per run, per turn and per tool execution, with each turn's model
// call nested under it; errors and aborts marked; tool content only when opted in; and nothing
// recorded (the caller's own sink used as is) while tracing is off.
import { type AssistantMessage, Type } from "@keel/ai";
import { fauxAssistantMessage, fauxText, fauxToolCall, registerFauxProvider } from "@keel/ai/testing";
import { disableTracing, enableTracing } from "@keel/ai/tracing";
import { SpanStatusCode } from "@opentelemetry/api";
import {
	BasicTracerProvider,
	InMemorySpanExporter,
	type ReadableSpan,
	SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterEach, describe, expect, it } from "vitest";
import { Agent, type AgentEventSink, type AgentTool, defaultConvertToLlm, runAgentLoop } from "../src/index.js";
import { traceAgentEvents } from "../src/tracing.js";
import { echoTool, user } from "./helpers.js";

const faux = registerFauxProvider({ api: "agent-tracing-faux", provider: "faux" });

afterEach(() => {
	disableTracing();
	faux.setResponses([]);
});

function recordSpans(recordContent = false) {
	const exporter = new InMemorySpanExporter();
	const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
	enableTracing({ tracer: provider.getTracer("test"), recordContent });
	const spans = () => exporter.getFinishedSpans();
	const children = (parent: ReadableSpan) =>
		spans().filter((span) => span.parentSpanContext?.spanId === parent.spanContext().spanId);
	/** The tree under `root` as nested [name, children] pairs, children in start order. */
	const tree = (root: ReadableSpan): unknown[] => [
		root.name,
		children(root)
			.sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1])
			.map(tree),
	];
	return { spans, children, tree, span: (name: string) => spans().find((span) => span.name === name) };
}

async function run(tools: AgentTool[], signal?: AbortSignal) {
	return runAgentLoop(
		[user("go")],
		{ systemPrompt: "", messages: [], tools },
		{ model: faux.getModel(), convertToLlm: defaultConvertToLlm },
		() => {},
		signal,
	);
}

describe("agent run tracing", () => {
	it("nests turns under the run, and each turn's model call and tool executions under the turn", async () => {
		const telemetry = recordSpans();
		faux.setResponses([fauxAssistantMessage([fauxToolCall("echo", { value: "secret-arg" }, "call_1")]), "done"]);
		await run([echoTool()]);

		const root = telemetry.span("invoke_agent");
		expect(root?.parentSpanContext).toBeUndefined();
		expect(telemetry.tree(root as ReadableSpan)).toEqual([
			"invoke_agent",
			[
				[
					"turn 1",
					[
						["chat faux-model", [["chat faux-model attempt 1", []]]],
						["execute_tool echo", []],
					],
				],
				["turn 2", [["chat faux-model", [["chat faux-model attempt 1", []]]]]],
			],
		]);
		expect(root?.attributes).toMatchObject({
			"gen_ai.operation.name": "invoke_agent",
			"gen_ai.request.model": "faux-model",
			"keel.agent.turns": 2,
		});
		const tool = telemetry.span("execute_tool echo");
		expect(tool?.attributes).toMatchObject({
			"gen_ai.operation.name": "execute_tool",
			"gen_ai.tool.name": "echo",
			"gen_ai.tool.call.id": "call_1",
		});
		expect(tool?.status.code).toBe(SpanStatusCode.UNSET);
		// No content by default: the tool's arguments and result stay out of the spans.
		expect(JSON.stringify(telemetry.spans().map((span) => span.attributes))).not.toContain("secret-arg");
	});

	it("traces an Agent's prompt the same way", async () => {
		const telemetry = recordSpans();
		faux.setResponses(["hello"]);
		const agent = new Agent({ initialState: { model: faux.getModel(), tools: [] } });
		await agent.prompt("hi");
		const root = telemetry.span("invoke_agent");
		expect(root && telemetry.tree(root)).toEqual([
			"invoke_agent",
			[["turn 1", [["chat faux-model", [["chat faux-model attempt 1", []]]]]]],
		]);
	});

	it("records tool arguments and results when the user opts in", async () => {
		const telemetry = recordSpans(true);
		faux.setResponses([fauxAssistantMessage([fauxToolCall("echo", { value: "x" }, "call_1")]), "done"]);
		await run([echoTool()]);
		const attributes = telemetry.span("execute_tool echo")?.attributes;
		expect(attributes?.["gen_ai.tool.call.arguments"]).toBe('{"value":"x"}');
		expect(JSON.parse(String(attributes?.["gen_ai.tool.call.result"]))).toMatchObject({
			content: [{ type: "text", text: "echo:x" }],
		});
	});

	it("marks a tool that failed, and a run whose response failed, in error", async () => {
		const telemetry = recordSpans();
		const failing: AgentTool = {
			name: "broken",
			label: "broken",
			description: "always throws",
			parameters: Type.Object({}),
			async execute() {
				throw new Error("disk full");
			},
		};
		faux.setResponses([
			fauxAssistantMessage([fauxToolCall("broken", {}, "call_1")]),
			fauxAssistantMessage([fauxText("")], { stopReason: "error", errorMessage: "server exploded" }),
		]);
		await run([failing]);

		expect(telemetry.span("execute_tool broken")?.status.code).toBe(SpanStatusCode.ERROR);
		expect(telemetry.span("execute_tool broken")?.attributes["error.type"]).toBe("tool_error");
		expect(telemetry.span("turn 2")?.status).toEqual({ code: SpanStatusCode.ERROR, message: "server exploded" });
		const root = telemetry.span("invoke_agent");
		expect(root?.status).toEqual({ code: SpanStatusCode.ERROR, message: "server exploded" });
		expect(root?.attributes["error.type"]).toBe("error");
	});

	it("marks an aborted run", async () => {
		const telemetry = recordSpans();
		const controller = new AbortController();
		controller.abort();
		faux.setResponses(["never sent"]);
		const messages = await run([], controller.signal);
		expect((messages.at(-1) as AssistantMessage).stopReason).toBe("aborted");
		expect(telemetry.span("invoke_agent")?.attributes["error.type"]).toBe("aborted");
		expect(telemetry.span("turn 1")?.attributes["error.type"]).toBe("aborted");
	});
});

describe("agent tracing off", () => {
	it("uses the caller's sink as is and records nothing", async () => {
		const telemetry = recordSpans();
		disableTracing();
		const sink: AgentEventSink = () => {};
		expect(traceAgentEvents(sink, faux.getModel())).toBe(sink);
		faux.setResponses(["hello"]);
		await run([]);
		expect(telemetry.spans()).toEqual([]);
	});
});
