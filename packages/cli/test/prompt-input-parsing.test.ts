// The small parsers behind the habits, in-process: the calculator tool's arithmetic, --schema's
// short form, -o pairs and their checks against a model, and the image types -a recognises.
import { defineModel } from "@keel/ai";
import { describe, expect, it } from "vitest";
import { UsageError } from "../src/command.js";
import { imageMimeType } from "../src/prompt-input/attachments.js";
import { joinOptionPairs, optionPairs, parseModelOptions } from "../src/prompt-input/model-options.js";
import { parseSchemaSpec } from "../src/prompt-input/schema-spec.js";
import { evaluateArithmetic } from "../src/tools/arithmetic.js";

describe("the calculator's arithmetic", () => {
	it("follows precedence, right-associative powers, unary minus, constants and functions", () => {
		expect(evaluateArithmetic("1 + 2 * 3")).toBe(7);
		expect(evaluateArithmetic("(1 + 2) * 3")).toBe(9);
		expect(evaluateArithmetic("2 ^ 3 ^ 2")).toBe(512);
		expect(evaluateArithmetic("2 ** 10")).toBe(1024);
		expect(evaluateArithmetic("-3 + -(-2)")).toBe(-1);
		expect(evaluateArithmetic("10 % 4")).toBe(2);
		expect(evaluateArithmetic("sqrt(16) + max(1, 5, 3) + abs(-2)")).toBe(11);
		expect(evaluateArithmetic("round(pi * 100) / 100")).toBe(3.14);
		expect(evaluateArithmetic("1.5e3 + .5")).toBe(1500.5);
	});

	it("refuses anything that is not arithmetic, saying what is wrong, and never runs it as code", () => {
		expect(() => evaluateArithmetic("process.exit(1)")).toThrow('unknown name or symbol "process"');
		expect(() => evaluateArithmetic("1 +")).toThrow("the expression ends too soon");
		expect(() => evaluateArithmetic("(1 + 2")).toThrow("the expression ends too soon");
		expect(() => evaluateArithmetic("1 2")).toThrow('unexpected "2"');
		expect(() => evaluateArithmetic("1 / 0")).toThrow("the result is not a finite number");
		expect(() => evaluateArithmetic("1+".repeat(600))).toThrow("longer than 1000 characters");
	});
});

describe("--schema's short form", () => {
	it("turns fields into a JSON Schema object with every field required", () => {
		expect(parseSchemaSpec("prompt", "name, age int: in years, height float\nalive bool")).toEqual({
			type: "object",
			properties: {
				name: { type: "string" },
				age: { type: "integer", description: "in years" },
				height: { type: "number" },
				alive: { type: "boolean" },
			},
			required: ["name", "age", "height", "alive"],
			additionalProperties: false,
		});
	});

	it("refuses an unknown type, an empty schema and a root that is not an object", () => {
		expect(() => parseSchemaSpec("prompt", "age number!")).toThrow(UsageError);
		expect(() => parseSchemaSpec("prompt", "age blob")).toThrow('cannot read the field "age blob"');
		expect(() => parseSchemaSpec("prompt", " , ")).toThrow("--schema is empty");
		expect(() => parseSchemaSpec("prompt", '{"type":"string"}')).toThrow("the schema's root must be an object");
	});
});

describe("-o model options", () => {
	const model = defineModel({ id: "m", baseUrl: "http://127.0.0.1:9/v1", maxTokens: 1000 });

	it("joins -o name value into one parseArgs value, leaving what follows -- alone", () => {
		expect(joinOptionPairs("prompt", ["-o", "temperature", "0.2", "hi", "--", "-o", "x"])).toEqual([
			"--option=temperature=0.2",
			"hi",
			"--",
			"-o",
			"x",
		]);
		expect(() => joinOptionPairs("prompt", ["-o", "temperature"])).toThrow("takes a name and a value");
	});

	it("accepts temperature, max_tokens (any spelling) and reasoning within the model's limits", () => {
		const pairs = optionPairs("prompt", ["temperature=0.7", "max-tokens=500", "reasoning=low"]);
		expect(parseModelOptions("prompt", model, pairs)).toEqual({
			callOptions: { temperature: 0.7, maxTokens: 500 },
			reasoning: "low",
		});
		expect(parseModelOptions("prompt", model, { maxTokens: "10" }).callOptions).toEqual({ maxTokens: 10 });
		expect(() => parseModelOptions("prompt", model, { max_tokens: "1001" })).toThrow("from 1 to 1000");
		expect(() => parseModelOptions("prompt", model, { temperature: "" })).toThrow("from 0 to 2");
		expect(() => parseModelOptions("prompt", model, { mirostat: "1" })).toThrow("-o mirostat is not an option");
	});

	it("takes the sampling keys the model's API takes as samplingParams, by any spelling", () => {
		expect(parseModelOptions("prompt", model, { "top-p": "0.9", seed: "1" }).callOptions).toEqual({
			samplingParams: { top_p: 0.9, seed: 1 },
		});
		expect(() => parseModelOptions("prompt", model, { top_p: "" })).toThrow('-o top_p expects a number, got ""');
	});
});

describe("the image types -a recognises", () => {
	it("reads PNG, JPEG, GIF and WebP from their first bytes, and nothing else", () => {
		expect(imageMimeType(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).toBe("image/png");
		expect(imageMimeType(Uint8Array.from([0xff, 0xd8, 0xff, 0xe0]))).toBe("image/jpeg");
		expect(imageMimeType(new TextEncoder().encode("GIF89a"))).toBe("image/gif");
		expect(imageMimeType(new TextEncoder().encode("RIFF\0\0\0\0WEBPVP8 "))).toBe("image/webp");
		expect(imageMimeType(new TextEncoder().encode("%PDF-1.7"))).toBeUndefined();
		expect(imageMimeType(new Uint8Array())).toBeUndefined();
	});
});
