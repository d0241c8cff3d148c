// pi-ai 1.5's createFauxCore on Keel: each case is a pi program with its imports renamed
// (`@earendil-works/pi-ai` → `@keel/ai`, the faux helpers → `@keel/ai/testing`) that wires the
// core's stream functions itself, and asserts what the program relies on.
import { afterEach, describe, expect, it } from "vitest";
import {
	type AssistantMessageEvent,
	type Context,
	createModels,
	createProvider,
	registerApiProvider,
	stream,
	unregisterApiProviders,
} from "../../src/index.js";
import {
	createFauxCore,
	fauxAssistantMessage,
	fauxText,
	fauxToolCall,
	NO_MORE_FAUX_RESPONSES,
} from "../../src/testing/index.js";

const question: Context = { messages: [{ role: "user", content: "What is in a.txt?", timestamp: 1 }] };

describe("createFauxCore, as a pi program uses it", () => {
	afterEach(() => unregisterApiProviders("faux-core-test"));

	it("serves a Models collection through createProvider, answering a tool call and then the tool result", async () => {
		const core = createFauxCore({ provider: "scripted", models: [{ id: "small" }, { id: "large", reasoning: true }] });
		const models = createModels();
		models.setProvider(
			createProvider({
				id: core.provider,
				auth: { apiKey: { name: "Scripted", resolve: async () => ({ auth: {} }) } },
				models: core.models,
				api: { stream: core.stream, streamSimple: core.streamSimple },
			}),
		);
		core.setResponses([
			fauxAssistantMessage([fauxText("Reading it."), fauxToolCall("read", { path: "a.txt" }, "call-1")], {
				stopReason: "toolUse",
			}),
			(context) => {
				const last = context.messages.at(-1);
				return fauxAssistantMessage(last?.role === "toolResult" ? "It says hello." : "No result.");
			},
		]);
		expect(core.getPendingResponseCount()).toBe(2);

		const model = core.getModel("large");
		expect(model).toMatchObject({ id: "large", provider: "scripted", api: core.api, reasoning: true });
		expect(models.getModel("scripted", "large")).toMatchObject({ id: "large" });

		const first = await models.completeSimple(model, question);
		expect(first.stopReason).toBe("toolUse");
		expect(first.content).toEqual([
			{ type: "text", text: "Reading it." },
			{ type: "toolCall", id: "call-1", name: "read", arguments: { path: "a.txt" } },
		]);
		expect(first).toMatchObject({ provider: "scripted", model: "large" });

		const second = await models.completeSimple(model, {
			messages: [
				...question.messages,
				first,
				{
					role: "toolResult",
					toolCallId: "call-1",
					toolName: "read",
					content: [{ type: "text", text: "hello" }],
					isError: false,
					timestamp: 2,
				},
			],
		});
		expect(second.content).toEqual([{ type: "text", text: "It says hello." }]);
		expect(core.state.callCount).toBe(2);
		expect(core.getPendingResponseCount()).toBe(0);
	});

	it("registers as a global API provider and streams events; an empty queue is an error event, not a throw", async () => {
		const core = createFauxCore({ api: "faux-core-api" });
		registerApiProvider({ api: core.api, stream: core.stream, streamSimple: core.streamSimple }, "faux-core-test");
		core.appendResponses([fauxAssistantMessage("Hi there.")]);

		const types: AssistantMessageEvent["type"][] = [];
		const events = stream(core.getModel(), question);
		for await (const event of events) types.push(event.type);
		expect(types[0]).toBe("start");
		expect(types).toContain("text_delta");
		expect(types.at(-1)).toBe("done");
		expect((await events.result()).content).toEqual([{ type: "text", text: "Hi there." }]);

		const empty = await core.streamSimple(core.getModel(), question).result();
		expect(empty.stopReason).toBe("error");
		expect(empty.errorMessage).toBe(NO_MORE_FAUX_RESPONSES);
	});

	it("setResponses replaces the queue, and two cores keep separate queues and counts", async () => {
		const one = createFauxCore({ api: "faux-one" });
		const two = createFauxCore({ api: "faux-two", provider: "other" });
		one.setResponses(["dropped", "dropped too"]);
		one.setResponses(["from one"]);
		two.setResponses(["from two"]);

		const fromOne = await one.stream(one.getModel(), question).result();
		expect(fromOne.content).toEqual([{ type: "text", text: "from one" }]);
		expect(fromOne).toMatchObject({ api: "faux-one", provider: "faux" });
		expect(one.state.callCount).toBe(1);
		expect(two.state.callCount).toBe(0);
		expect(two.getPendingResponseCount()).toBe(1);
		expect((await two.stream(two.getModel(), question).result()).content).toEqual([{ type: "text", text: "from two" }]);
	});

	it("refuses bad options when created, naming the option", () => {
		expect(() => createFauxCore({ models: [] })).toThrow(/models must not be empty/);
		expect(() => createFauxCore({ tokensPerSecond: 0 })).toThrow(/tokensPerSecond must be positive/);
	});
});
