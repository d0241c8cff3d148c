// The output keel chat holds while a line is typed during an answer: nothing reaches the terminal
// while held, everything comes out in order once released, and the column the answer stopped at is
// known (so the answer goes on from there), whatever colours, wide characters or wrapping it had.

import { INTERRUPTED_BY_STEERING_TEXT } from "@keel/agent-core";
import type { AssistantMessage } from "@keel/ai";
import { describe, expect, it } from "vitest";
import { AnswerPrinter } from "../src/answer-output.js";
import { HoldableOutput, widthAfter } from "../src/conversation/holdable-output.js";

function screen(columns = 20) {
	const written: string[] = [];
	const stream = { isTTY: true, columns, write: (text: string) => written.push(text) };
	return { written, real: { stdout: stream, stderr: stream } };
}

describe("HoldableOutput", () => {
	it("holds both streams' writes and releases them in the order they were made", () => {
		const { written, real } = screen();
		const output = new HoldableOutput(real);
		output.stdout.write("Hello");
		expect(output.hold()).toBe(5);
		// A fresh line for the user to type on.
		expect(written).toEqual(["Hello", "\n"]);
		output.stdout.write(" world");
		output.stderr.write("(note)\n");
		output.stdout.write("more");
		expect(written).toEqual(["Hello", "\n"]);
		expect(output.isHeld).toBe(true);

		output.release(5);
		expect(output.isHeld).toBe(false);
		// Back up one row to column 5 (1-based 6), then what was held.
		expect(written).toEqual(["Hello", "\n", "\u001b[1A\u001b[6G", " world", "(note)\n", "more"]);
	});

	it("at the start of a line it writes no line break; after a row filled to the last column, one and no column", () => {
		const { written, real } = screen(10);
		const output = new HoldableOutput(real);
		output.stdout.write("line\n");
		expect(output.hold()).toBeUndefined();
		output.release(undefined);
		output.stdout.write("0123456789");
		// The cursor stays on the full row until the next character: the line break moves off it,
		// and the answer goes on at the start of the new line, where it would have wrapped to.
		expect(output.hold()).toBeUndefined();
		expect(written).toEqual(["line\n", "0123456789", "\n"]);
	});

	it("knows the column on a wrapped row, after colours and a carriage return", () => {
		const { real } = screen(10);
		const output = new HoldableOutput(real);
		output.stdout.write("\u001b[2mthinking\u001b[22m\r");
		output.stdout.write("0123456789abc");
		expect(output.hold()).toBe(3);
	});
});

describe("widthAfter", () => {
	it("counts wide characters as two columns, marks as none, tabs to the next stop", () => {
		expect(widthAfter(0, "日本")).toBe(4);
		expect(widthAfter(0, "e\u0301")).toBe(1);
		expect(widthAfter(3, "\tx")).toBe(9);
		expect(widthAfter(7, "ab\ncd")).toBe(2);
		expect(widthAfter(0, "\u001b[36m> \u001b[39m")).toBe(2);
	});
});

describe("AnswerPrinter and an interrupted answer", () => {
	const message = (fields: Partial<AssistantMessage>): AssistantMessage => ({
		role: "assistant",
		content: [{ type: "text", text: "Half" }],
		api: "openai-completions",
		provider: "custom",
		model: "test-model",
		usage: {
			input: 0,
			output: 0,
			cacheRead: 0,
			cacheWrite: 0,
			totalTokens: 0,
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
		},
		stopReason: "aborted",
		timestamp: 0,
		...fields,
	});

	function print(end: AssistantMessage) {
		const stdout: string[] = [];
		const stderr: string[] = [];
		const terminal = {
			stdin: process.stdin,
			stdout: { isTTY: true, write: (text: string) => stdout.push(text) },
			stderr: { isTTY: true, write: (text: string) => stderr.push(text) },
			env: { NO_COLOR: "1" },
			onInterrupt: () => () => {},
		};
		const printer = new AnswerPrinter(terminal, { json: false });
		printer.start();
		printer.event({ type: "text_delta", contentIndex: 0, delta: "Half", partial: end });
		printer.end(end);
		return { stdout: stdout.join(""), stderr: stderr.join("") };
	}

	it("ends the text with (interrupted), and neither 'Aborted.' nor a usage line", () => {
		expect(print(message({ errorMessage: INTERRUPTED_BY_STEERING_TEXT }))).toEqual({
			stdout: "Half (interrupted)\n",
			stderr: "",
		});
	});

	it("an answer stopped with Ctrl-C still says Aborted. and its usage", () => {
		expect(print(message({ errorMessage: "Request was aborted" }))).toEqual({
			stdout: "Half\n",
			stderr: "Aborted.\n0 in, 0 out · $0\n",
		});
	});
});
