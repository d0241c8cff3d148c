// A tracer that throws (a broken exporter or span processor) never changes a call's outcome: the
// caller still gets exactly one terminal event with the model's message, alone or through a chain.
import type { Span, Tracer } from "@opentelemetry/api";
import { BasicTracerProvider } from "@opentelemetry/sdk-trace-base";
import { afterEach, describe, expect, it } from "vitest";
import { createFallbackStream } from "../src/fallback/create-fallback-stream.js";
import { stream } from "../src/stream.js";
import { fauxAssistantMessage, registerFauxProvider } from "../src/testing/faux-provider.js";
import { disableTracing, enableTracing } from "../src/tracing/index.js";
import type { AssistantMessageEvent } from "../src/types.js";

const THROWING_METHODS = new Set(["end", "setAttribute", "setAttributes", "setStatus", "addEvent", "recordException"]);

/** A real tracer whose spans throw from every method that records something. */
function throwingSpansTracer(): Tracer {
	const tracer = new BasicTracerProvider().getTracer("throwing");
	const wrap = (span: Span): Span =>
		new Proxy(span, {
			get(target, property, receiver) {
				if (typeof property === "string" && THROWING_METHODS.has(property)) {
					return () => {
						throw new Error(`span.${property} failed`);
					};
				}
				const value = Reflect.get(target, property, receiver);
				return typeof value === "function" ? value.bind(target) : value;
			},
		});
	return {
		startSpan: (...args: Parameters<Tracer["startSpan"]>) => wrap(tracer.startSpan(...args)),
		startActiveSpan: tracer.startActiveSpan.bind(tracer),
	} as Tracer;
}

/** A tracer whose `startSpan` itself throws. */
function throwingStartTracer(): Tracer {
	const fail = () => {
		throw new Error("startSpan failed");
	};
	return { startSpan: fail, startActiveSpan: fail } as unknown as Tracer;
}

const context = { messages: [{ role: "user" as const, content: "hi", timestamp: 0 }] };

async function collect(events: AsyncIterable<AssistantMessageEvent>): Promise<AssistantMessageEvent[]> {
	const seen: AssistantMessageEvent[] = [];
	for await (const event of events) seen.push(event);
	return seen;
}

function terminalEvents(events: AssistantMessageEvent[]) {
	return events.filter((event) => event.type === "done" || event.type === "error");
}

afterEach(() => disableTracing());

describe.each([
	["span methods throw", throwingSpansTracer],
	["startSpan throws", throwingStartTracer],
])("a failing tracer (%s)", (_name, makeTracer) => {
	it("leaves a model call's outcome alone: one done event with the answer", async () => {
		enableTracing({ tracer: makeTracer() });
		const faux = registerFauxProvider({ api: "tracing-failure-call", models: [{ id: "m" }], responses: ["answer"] });
		try {
			const events = await collect(stream(faux.getModel("m"), context));
			const terminals = terminalEvents(events);
			expect(terminals).toHaveLength(1);
			expect(terminals[0].type).toBe("done");
			const message = terminals[0].type === "done" ? terminals[0].message : undefined;
			expect(message?.stopReason).toBe("stop");
			expect(message?.content).toEqual([{ type: "text", text: "answer" }]);
		} finally {
			faux.unregister();
		}
	});

	it("leaves a fallback chain's outcome alone: the backup's answer in one done event", async () => {
		enableTracing({ tracer: makeTracer() });
		const faux = registerFauxProvider({
			api: "tracing-failure-chain",
			models: [{ id: "primary" }, { id: "backup" }],
			responses: [fauxAssistantMessage("", { stopReason: "error", errorMessage: "overloaded" }), "answer"],
		});
		const models = [faux.getModel("primary"), faux.getModel("backup")];
		try {
			const events = await collect(createFallbackStream(models, { entry: "stream" })(models[0], context));
			const terminals = terminalEvents(events);
			expect(terminals).toHaveLength(1);
			expect(terminals[0].type).toBe("done");
			const message = terminals[0].type === "done" ? terminals[0].message : undefined;
			expect(message?.model).toBe("backup");
			expect(message?.content).toEqual([{ type: "text", text: "answer" }]);
		} finally {
			faux.unregister();
		}
	});
});
