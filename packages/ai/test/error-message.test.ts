import { describe, expect, it } from "vitest";
import { createEmptyAssistantMessage, createErrorMessage, formatThrownValue } from "../src/index.js";

describe("formatThrownValue", () => {
	it("gives an Error's message, or its name when the message is empty", () => {
		expect(formatThrownValue(new TypeError("bad input"))).toBe("bad input");
		expect(formatThrownValue(new RangeError())).toBe("RangeError");
	});

	it("gives a string as it is and anything else as JSON", () => {
		expect(formatThrownValue("plain")).toBe("plain");
		expect(formatThrownValue({ code: 42 })).toBe('{"code":42}');
		expect(formatThrownValue(undefined)).toBe("undefined");
	});

	it("falls back to String() for values JSON cannot serialise", () => {
		const cyclic: Record<string, unknown> = {};
		cyclic.self = cyclic;
		expect(formatThrownValue(cyclic)).toBe("[object Object]");
		expect(formatThrownValue(10n)).toBe("10");
	});
});

describe("createErrorMessage", () => {
	it("starts empty from a model", () => {
		const message = createErrorMessage({ api: "x-api", provider: "x", id: "x-1" }, "error", "it broke");
		expect(message).toMatchObject({ role: "assistant", api: "x-api", provider: "x", model: "x-1", content: [] });
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toBe("it broke");
	});

	it("keeps a partial's content and usage without sharing its content array", () => {
		const partial = createEmptyAssistantMessage("x-api", "x", "x-1");
		partial.content.push({ type: "text", text: "so far" });
		partial.usage.output = 7;
		const message = createErrorMessage(partial, "aborted", "Request was aborted");
		partial.content.push({ type: "text", text: "later" });
		expect(message.content).toEqual([{ type: "text", text: "so far" }]);
		expect(message.usage.output).toBe(7);
		expect(message.stopReason).toBe("aborted");
		expect(partial.stopReason).toBe("stop");
	});
});
