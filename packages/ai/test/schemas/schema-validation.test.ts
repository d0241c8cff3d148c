// Tool arguments and structured values validated by each schema library's own validator: the
// library's messages reach the error (what the model reads to fix its call), and a valid value
// comes back as the library's output (transforms and defaults applied).
import { toStandardJsonSchema } from "@valibot/to-json-schema";
import { type } from "arktype";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
	checkJsonValue,
	checkToolArguments,
	type Tool,
	type ToolCall,
	toJsonSchema,
	validateJsonValue,
	validateTool,
	validateToolArguments,
	validateToolCall,
} from "../../src/index.js";

function call(name: string, args: Record<string, unknown>): ToolCall {
	return { type: "toolCall", id: "call_1", name, arguments: args };
}

const zodWeather = z.object({
	city: z.string().min(2),
	days: z.number().int().default(3),
	unit: z.enum(["c", "f"]).transform((unit) => (unit === "c" ? "celsius" : "fahrenheit")),
});
const valibotWeather = toStandardJsonSchema(
	v.object({ city: v.pipe(v.string(), v.minLength(2)), days: v.optional(v.number(), 3) }),
);
const arktypeWeather = type({ city: "string >= 2", "days?": "number.integer" });

describe("Zod tools", () => {
	const tool = { name: "weather", description: "Weather", parameters: zodWeather };

	it("a valid call gets Zod's output: the default filled in and the transform applied", () => {
		expect(validateToolArguments(tool, call("weather", { city: "Paris", unit: "c" }))).toEqual({
			city: "Paris",
			days: 3,
			unit: "celsius",
		});
	});

	it("an invalid call lists Zod's messages with their paths, then the arguments as sent", () => {
		const sent = { city: "P", days: 1.5, unit: "k" };
		expect(() => validateToolArguments(tool, call("weather", sent))).toThrow(
			/^Validation failed for tool "weather":\n {2}- city: Too small: expected string to have >=2 characters\n {2}- days: Invalid input: expected int, received number\n {2}- unit: Invalid option: expected one of "c"\|"f"\n\nReceived arguments:\n/,
		);
	});

	it("the call's own arguments are never changed", () => {
		const args = { city: "Paris", unit: "f" };
		validateToolArguments(tool, call("weather", args));
		expect(args).toEqual({ city: "Paris", unit: "f" });
	});

	it("validateToolCall finds a Zod tool among TypeBox ones", () => {
		const tools: Tool[] = [tool];
		expect(validateToolCall(tools, call("weather", { city: "Oslo", unit: "c" }))).toMatchObject({ city: "Oslo" });
	});

	it("an asynchronous refinement: checkToolArguments returns a promise, validateToolArguments says to use it", async () => {
		const known = z.object({ city: z.string().refine(async (city) => city !== "Atlantis", "no such city") });
		const asyncTool = { name: "visit", description: "Visit", parameters: known };
		await expect(checkToolArguments(asyncTool, call("visit", { city: "Rome" }))).resolves.toEqual({ city: "Rome" });
		await expect(checkToolArguments(asyncTool, call("visit", { city: "Atlantis" }))).rejects.toThrow(
			'Validation failed for tool "visit":\n  - city: no such city',
		);
		expect(() => validateToolArguments(asyncTool, call("visit", { city: "Rome" }))).toThrow(
			'Tool "visit" has a parameters schema that validates asynchronously (a Standard Schema with asynchronous checks): use checkToolArguments',
		);
	});
});

describe("Valibot tools", () => {
	const tool = { name: "weather", description: "Weather", parameters: valibotWeather };

	it("a valid call gets Valibot's output, the default filled in", () => {
		expect(validateToolArguments(tool, call("weather", { city: "Paris" }))).toEqual({ city: "Paris", days: 3 });
	});

	it("an invalid call lists Valibot's messages with their paths", () => {
		expect(() => validateToolArguments(tool, call("weather", { city: 5 }))).toThrow(
			/^Validation failed for tool "weather":\n {2}- city: Invalid type: Expected string but received 5\n/,
		);
	});
});

describe("ArkType tools", () => {
	const tool = { name: "weather", description: "Weather", parameters: arktypeWeather };

	it("a valid call passes as ArkType returns it", () => {
		expect(validateToolArguments(tool, call("weather", { city: "Paris", days: 2 }))).toEqual({
			city: "Paris",
			days: 2,
		});
	});

	it("an invalid call lists ArkType's messages with their paths", () => {
		expect(() => validateToolArguments(tool, call("weather", { city: "Paris", days: 1.5 }))).toThrow(
			/^Validation failed for tool "weather":\n {2}- days: days must be an integer \(was 1\.5\)\n/,
		);
	});
});

describe("plain JSON Schema tools", () => {
	const parameters = {
		type: "object",
		properties: { city: { type: "string" }, days: { type: "integer" } },
		required: ["city"],
		additionalProperties: false,
	};
	const tool = { name: "weather", description: "Weather", parameters };

	it("is validated by AJV, with the same repairs as TypeBox (a numeric string becomes a number)", () => {
		expect(validateToolArguments(tool, call("weather", { city: "Paris", days: "2" }))).toEqual({
			city: "Paris",
			days: 2,
		});
	});

	it("an invalid call lists AJV's messages", () => {
		expect(() => validateToolArguments(tool, call("weather", { days: 2, extra: true }))).toThrow(
			/- city: must have required property 'city'\n {2}- root: must NOT have additional properties: "extra"/,
		);
	});
});

describe("structured values", () => {
	it("validateJsonValue and checkJsonValue use the library's validator and name the schema", () => {
		expect(validateJsonValue(zodWeather, { city: "Paris", unit: "f" }, "forecast")).toMatchObject({
			unit: "fahrenheit",
		});
		// A synchronous validator: checkJsonValue throws at once rather than returning a promise.
		expect(() => checkJsonValue(arktypeWeather, { city: 1 }, "forecast")).toThrow(
			/^Validation failed for schema "forecast":\n {2}- city: city must be a string \(was a number\)\n\nReceived value:/,
		);
	});
});

describe("JSON Schema conversion", () => {
	it("converts each library's schema with its own converter (input side), without $schema", () => {
		expect(toJsonSchema(zodWeather)).toEqual({
			type: "object",
			properties: {
				city: { type: "string", minLength: 2 },
				days: { type: "integer", default: 3, minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER },
				unit: { type: "string", enum: ["c", "f"] },
			},
			required: ["city", "unit"],
		});
		expect(toJsonSchema(valibotWeather)).toEqual({
			type: "object",
			properties: { city: { type: "string", minLength: 2 }, days: { type: "number", default: 3 } },
			required: ["city"],
		});
		expect(toJsonSchema(arktypeWeather)).toEqual({
			type: "object",
			properties: { city: { type: "string", minLength: 2 }, days: { type: "integer" } },
			required: ["city"],
		});
	});

	it("converts a schema once: the same object comes back for the same schema", () => {
		expect(toJsonSchema(zodWeather)).toBe(toJsonSchema(zodWeather));
	});

	it("a plain Valibot schema (no Standard JSON Schema) fails with how to convert it", () => {
		expect(() => toJsonSchema(v.object({ city: v.string() }), 'Tool "weather"')).toThrow(
			'Tool "weather" has a valibot schema that cannot be converted to JSON Schema (it does not implement Standard JSON Schema, https://standardschema.dev/json-schema): wrap it with toStandardJsonSchema() from @valibot/to-json-schema',
		);
	});

	it("a schema the library cannot express in JSON Schema fails with the library's reason", () => {
		expect(() => toJsonSchema(z.object({ when: z.date() }), 'Tool "calendar"')).toThrow(
			/^Tool "calendar" has a zod schema that zod cannot convert to JSON Schema: .*Date/,
		);
	});

	it("a value that is no schema at all says what is accepted", () => {
		expect(() => toJsonSchema("string", 'Tool "x"')).toThrow(
			'Tool "x" has no usable schema: expected a JSON Schema object, a TypeBox schema or a Standard Schema (Zod, Valibot, ArkType), got string',
		);
	});
});

describe("tool definitions in a context", () => {
	it("validateTool accepts a Standard Schema (an ArkType type is a function) and names what else is accepted", () => {
		expect(() => validateTool({ name: "a", description: "A", parameters: zodWeather }, "tools[0]")).not.toThrow();
		expect(() => validateTool({ name: "b", description: "B", parameters: arktypeWeather }, "tools[1]")).not.toThrow();
		expect(() => validateTool({ name: "c", description: "C", parameters: "string" }, "tools[2]")).toThrow(
			"tools[2].parameters must be a JSON Schema object, a TypeBox schema or a Standard Schema (Zod, Valibot, ArkType), got",
		);
	});
});
