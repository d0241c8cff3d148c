// pi-ai 1.5's transcript helpers, parseToolCallArguments, ModelsError, getModelType/isModelType,
// the diagnostics helpers and lazyApi/lazyStream, each pinned to pi's documented behaviour.
import { describe, expect, it, vi } from "vitest";
import {
	type AssistantMessageEvent,
	appendAssistantMessageDiagnostic,
	collapseSystemMessages,
	createAssistantMessageDiagnostic,
	createInitialSystemMessage,
	declarationsEqual,
	defaultProviderAuthContext,
	extractDiagnosticError,
	getCurrentSystemMessage,
	getCurrentSystemPrompt,
	getCurrentTools,
	getDeclaredTools,
	getInitialSystemMessage,
	getModelType,
	getSystemMessageText,
	getToolStateChanges,
	hasNonAdditiveToolChanges,
	hasToolRedefinitions,
	isModelType,
	lazyApi,
	lazyStream,
	type Message,
	ModelsError,
	normalizeContext,
	parseToolCallArguments,
	resolveTranscript,
	type SystemMessage,
	type Tool,
	Type,
	toToolDeclaration,
	withoutInitialSystemMessage,
} from "../../src/index.js";
import { createFauxStreams, fauxAssistantMessage } from "../../src/testing/faux-provider.js";
import { createEmptyAssistantMessage } from "../../src/utils/event-stream.js";
import { userMessage } from "../helpers/messages.js";

const read: Tool = { name: "read", description: "reads a file", parameters: Type.Object({ path: Type.String() }) };
const write: Tool = { name: "write", description: "writes a file", parameters: Type.Object({ path: Type.String() }) };
const readV2: Tool = { ...read, description: "reads a file, with line numbers" };
const system = (fields: Partial<SystemMessage>): SystemMessage => ({
	role: "system",
	content: "",
	timestamp: 1,
	...fields,
});

describe("transcript helpers", () => {
	it("normalizeContext folds the prompt and tools into a leading system message; an empty one adds none", () => {
		const hi = userMessage("hi");
		const normalized = normalizeContext({ systemPrompt: "Be brief.", tools: [read], messages: [hi] });
		expect(normalized.messages).toEqual([
			{ role: "system", content: "Be brief.", toolsAdded: [read], timestamp: 0 },
			hi,
		]);
		expect(normalizeContext({ messages: [hi] }).messages).toEqual([hi]);
		expect(createInitialSystemMessage("", [])).toBeUndefined();
	});

	it("reads and drops the leading system message", () => {
		const messages: Message[] = [system({ content: "base" }), userMessage("hi")];
		expect(getInitialSystemMessage(messages)?.content).toBe("base");
		expect(withoutInitialSystemMessage(messages)).toEqual([messages[1]]);
		expect(getInitialSystemMessage([userMessage("hi")])).toBeUndefined();
	});

	it("replays content, sections and tool changes into the current system message and prompt", () => {
		const messages: Message[] = [
			system({ content: "base", sections: { style: "<style>short</style>" }, toolsAdded: [read, write] }),
			userMessage("hi"),
			system({
				content: "now also careful",
				sections: { style: null, rules: "<rules>r</rules>" },
				toolsRemoved: [{ name: "write" }],
			}),
		];
		expect(getCurrentTools(messages).map((tool) => tool.name)).toEqual(["read"]);
		expect(getCurrentSystemMessage(messages)).toEqual({
			role: "system",
			content: "base\n\nnow also careful",
			sections: { rules: "<rules>r</rules>" },
			toolsAdded: [read],
			timestamp: 1,
		});
		expect(getCurrentSystemPrompt(messages)).toBe("base\n\nnow also careful\n\n<rules>r</rules>");
		expect(getCurrentSystemPrompt([userMessage("hi")])).toBe("");
		expect(getSystemMessageText(system({ content: "a", sections: { x: "b", y: null } }))).toBe("a\n\nb");
	});

	it("collapses later system messages into the leading one, or keeps them where the model takes them", () => {
		const hi = userMessage("hi");
		const context = { messages: [system({ content: "base" }), hi, system({ content: "later" })] as Message[] };
		const collapsed = collapseSystemMessages(context);
		expect(collapsed.messages).toHaveLength(2);
		expect(collapsed.messages[0]).toMatchObject({ role: "system", content: "base\n\nlater" });
		expect(collapsed.messages[1]).toBe(hi);
		expect(resolveTranscript(context, true)).toBe(context);
		expect(resolveTranscript(context, false)).toEqual(collapsed);
	});

	it("compares declarations and lists tool changes, a changed definition as a removal and an addition", () => {
		expect(toToolDeclaration({ ...read, execute: () => 1 } as Tool)).toEqual({
			name: "read",
			description: "reads a file",
			parameters: JSON.parse(JSON.stringify(read.parameters)),
		});
		expect(declarationsEqual(read, { ...read })).toBe(true);
		expect(declarationsEqual(read, readV2)).toBe(false);
		const changes = getToolStateChanges([read, write], [readV2]);
		expect(changes.toolsAdded.map((tool) => tool.description)).toEqual(["reads a file, with line numbers"]);
		expect(changes.toolsRemoved).toEqual([{ name: "read" }, { name: "write" }]);
	});

	it("finds declared tools, redefinitions and changes an addition-only transport cannot replay", () => {
		const additive = [system({ toolsAdded: [read] }), system({ toolsAdded: [write] })];
		expect(getDeclaredTools(additive).map((tool) => tool.name)).toEqual(["read", "write"]);
		expect(hasNonAdditiveToolChanges(additive)).toBe(false);
		expect(hasToolRedefinitions(additive)).toBe(false);
		const redefined = [system({ toolsAdded: [read] }), system({ toolsAdded: [readV2] })];
		expect(hasToolRedefinitions(redefined)).toBe(true);
		expect(getDeclaredTools(redefined)[0].description).toBe(readV2.description);
		expect(
			hasNonAdditiveToolChanges([system({ toolsAdded: [read] }), system({ toolsRemoved: [{ name: "read" }] })]),
		).toBe(true);
	});
});

describe("parseToolCallArguments", () => {
	it("parses a finished call's object, repairing raw newlines, and treats empty text as {}", () => {
		expect(parseToolCallArguments('{"path":"a.txt"}')).toEqual({ arguments: { path: "a.txt" } });
		expect(parseToolCallArguments('{"code":"line1\nline2"}')).toEqual({ arguments: { code: "line1\nline2" } });
		expect(parseToolCallArguments(undefined)).toEqual({ arguments: {} });
		expect(parseToolCallArguments("")).toEqual({ arguments: {} });
	});

	it("keeps no prefix of malformed text: {} and an error quoting what the model sent", () => {
		const cut = parseToolCallArguments('{"path":"a.t');
		expect(cut.arguments).toEqual({});
		expect(cut.argumentsError).toContain('{"path":"a.t');
		const array = parseToolCallArguments("[1,2]");
		expect(array.arguments).toEqual({});
		expect(array.argumentsError).toContain("must be a JSON object");
	});
});

describe("ModelsError", () => {
	it("carries its code and keeps the cause's text in the message", () => {
		const error = new ModelsError("auth", "No key for anthropic", { cause: new Error("store unreadable") });
		expect(error).toBeInstanceOf(Error);
		expect(error.name).toBe("ModelsError");
		expect(error.code).toBe("auth");
		expect(error.message).toBe("No key for anthropic: store unreadable");
		expect(new ModelsError("provider", "x: boom", { cause: "boom" }).message).toBe("x: boom");
	});
});

describe("defaultProviderAuthContext", () => {
	it("reads process.env, an empty variable counting as unset", async () => {
		vi.stubEnv("KEEL_TEST_AUTH_CONTEXT", "value-1");
		vi.stubEnv("KEEL_TEST_AUTH_CONTEXT_EMPTY", "");
		const context = defaultProviderAuthContext();
		expect(await context.env("KEEL_TEST_AUTH_CONTEXT")).toBe("value-1");
		expect(await context.env("KEEL_TEST_AUTH_CONTEXT_EMPTY")).toBeUndefined();
		vi.unstubAllEnvs();
	});
});

describe("getModelType / isModelType", () => {
	it("counts a model without type as a chat model", () => {
		expect(getModelType({ id: "m" })).toBe("chat");
		expect(isModelType({ id: "m" }, "chat")).toBe(true);
		expect(isModelType({ id: "m", type: "image" }, "chat")).toBe(false);
	});
});

describe("diagnostics helpers", () => {
	it("turn a thrown value into plain data and append a stamped diagnostic as a new list", () => {
		const error = Object.assign(new TypeError("bad"), { code: "E_BAD" });
		expect(extractDiagnosticError(error)).toMatchObject({ name: "TypeError", message: "bad", code: "E_BAD" });
		expect(extractDiagnosticError("plain")).toEqual({ name: "ThrownValue", message: "plain" });
		const message = createEmptyAssistantMessage("faux", "faux", "m");
		const first = createAssistantMessageDiagnostic("retry", new Error("503"), { attempt: 1 });
		expect(first).toMatchObject({ type: "retry", error: { message: "503" }, details: { attempt: 1 } });
		expect(typeof first.timestamp).toBe("number");
		appendAssistantMessageDiagnostic(message, first);
		const list = message.diagnostics;
		appendAssistantMessageDiagnostic(message, createAssistantMessageDiagnostic("retry", "again"));
		expect(message.diagnostics).toHaveLength(2);
		expect(list).toHaveLength(1);
	});
});

describe("lazyApi / lazyStream", () => {
	const model = { api: "faux", provider: "faux", id: "faux-model" };

	it("returns stream functions without loading the module, which loads when a call is made", async () => {
		const { streams, controls } = createFauxStreams({});
		controls.setResponses([fauxAssistantMessage("one"), fauxAssistantMessage("two")]);
		let loads = 0;
		const api = lazyApi(async () => {
			loads++;
			return streams;
		});
		expect(loads).toBe(0);
		const faux = controls.getModel();
		const first = await api.streamSimple(faux, { messages: [userMessage("hi")] }).result();
		expect(first.content).toEqual([{ type: "text", text: "one" }]);
		expect(loads).toBe(1);
	});

	it("ends with one error event when setup fails, and tells the observer", async () => {
		const events: AssistantMessageEvent[] = [];
		let observed: unknown;
		const stream = lazyStream(
			model,
			async () => {
				throw new Error("module not found");
			},
			{ onEvent: (event) => events.push(event), onResult: (result) => (observed = result) },
		);
		const result = await stream.result();
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toBe("module not found");
		expect(events.map((event) => event.type)).toEqual(["error"]);
		expect(observed).toBe(result);
	});
});
