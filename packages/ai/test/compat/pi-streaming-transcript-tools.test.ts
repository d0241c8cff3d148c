// pi-ai 1.5's ToolCallArgumentsStream and resolveTranscriptTools, pinned to pi's documented behaviour.
import { describe, expect, it } from "vitest";
import {
	type Message,
	resolveTranscriptTools,
	type SystemMessage,
	type Tool,
	ToolCallArgumentsStream,
	Type,
} from "../../src/index.js";
import { userMessage } from "../helpers/messages.js";

describe("ToolCallArgumentsStream", () => {
	it("shows partial arguments as text arrives, a new object only when they change", () => {
		const stream = new ToolCallArgumentsStream();
		expect(stream.append('{"path": "src/ma')).toEqual({ path: "src/ma" });
		const held = stream.append('in.ts", "lines"');
		expect(held).toEqual({ path: "src/main.ts" });
		expect(stream.append(" ")).toBe(held);
		expect(stream.append(": [1, 2]}")).toEqual({ path: "src/main.ts", lines: [1, 2] });
		expect(held).toEqual({ path: "src/main.ts" });
		expect(stream.text).toBe('{"path": "src/main.ts", "lines" : [1, 2]}');
		expect(stream.finish()).toEqual({ arguments: { path: "src/main.ts", lines: [1, 2] } });
	});

	it("reads a non-object partial value as no arguments yet", () => {
		expect(new ToolCallArgumentsStream().append("[1,")).toEqual({});
	});

	it("replace returns the missing piece when the full text continues the stream, else starts over", () => {
		const stream = new ToolCallArgumentsStream();
		stream.append('{"a": 1');
		expect(stream.replace('{"a": 1, "b": 2}')).toEqual({ delta: ', "b": 2}', arguments: { a: 1, b: 2 } });
		expect(stream.replace('{"a": 1, "b": 2}')).toEqual({ delta: "", arguments: { a: 1, b: 2 } });
		expect(stream.replace('{"c": 3}')).toEqual({ delta: undefined, arguments: { c: 3 } });
		expect(stream.text).toBe('{"c": 3}');
	});

	it("finish reports malformed arguments instead of the partial value", () => {
		const stream = new ToolCallArgumentsStream();
		stream.append('{"a": ');
		const finished = stream.finish();
		expect(finished.arguments).toEqual({});
		expect(finished.argumentsError).toContain('{"a": ');
	});
});

const tool = (name: string, description = name): Tool => ({ name, description, parameters: Type.Object({}) });
const system = (fields: Partial<SystemMessage>): SystemMessage => ({
	role: "system",
	content: "",
	timestamp: 1,
	...fields,
});
const names = (tools: Tool[]) => tools.map((entry) => entry.name);

describe("resolveTranscriptTools", () => {
	const read = tool("read");
	const write = tool("write");
	const grep = tool("grep");
	const additive: Message[] = [
		system({ toolsAdded: [read] }),
		userMessage("hi"),
		system({ toolsAdded: [write] }),
		system({ toolsAdded: [grep] }),
	];

	it('"none" sends the current tool set at the top level, folding every system message', () => {
		const resolved = resolveTranscriptTools(additive, "none");
		expect(names(resolved.requestTools)).toEqual(["read", "write", "grep"]);
		expect(resolved.foldedSystemMessages).toBe(3);
	});

	it('"changes" declares every tool in place', () => {
		expect(resolveTranscriptTools(additive, "changes")).toEqual({ requestTools: [], foldedSystemMessages: 0 });
	});

	it('"additions" folds the leading system message and keeps later additions in place', () => {
		const resolved = resolveTranscriptTools(additive, "additions");
		expect(names(resolved.requestTools)).toEqual(["read"]);
		expect(resolved.foldedSystemMessages).toBe(1);
	});

	it('"additions" folds up to the last removal or redeclaration, even of a removed name', () => {
		const messages: Message[] = [
			system({ toolsAdded: [read, write] }),
			system({ toolsRemoved: [{ name: "write" }] }),
			system({ toolsAdded: [grep] }),
			system({ toolsAdded: [tool("write", "writes again")] }),
			system({ toolsAdded: [tool("edit")] }),
		];
		const resolved = resolveTranscriptTools(messages, "additions");
		expect(resolved.foldedSystemMessages).toBe(4);
		expect(names(resolved.requestTools)).toEqual(["read", "grep", "write"]);
	});

	it('"additions" with no leading system message folds nothing', () => {
		const messages: Message[] = [userMessage("hi"), system({ toolsAdded: [read] })];
		expect(resolveTranscriptTools(messages, "additions")).toEqual({ requestTools: [], foldedSystemMessages: 0 });
	});
});
