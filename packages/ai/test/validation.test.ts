import { type TSchema, Type } from "@sinclair/typebox";
import { Ajv } from "ajv";
import { afterEach, describe, expect, expectTypeOf, it, vi } from "vitest";
import type { Tool, ToolCall } from "../src/types.js";
import { StringEnum } from "../src/utils/typebox-helpers.js";
import { validateToolArguments, validateToolCall } from "../src/utils/validation.js";

function toolWith<TParameters extends TSchema>(parameters: TParameters, name = "edit"): Tool<TParameters> {
	return { name, description: `The ${name} tool`, parameters };
}

function callWith(args: unknown, name = "edit"): ToolCall {
	return { type: "toolCall", id: "call_1", name, arguments: args as Record<string, unknown> };
}

afterEach(() => {
	vi.restoreAllMocks();
});

describe("validateToolArguments: coercion", () => {
	const tool = toolWith(Type.Object({ n: Type.Number(), b: Type.Boolean(), s: Type.String() }));

	it("coerces scalars to the schema's types and returns a copy, leaving the call untouched", () => {
		const call = callWith({ n: "5", b: "true", s: 7 });
		const result = validateToolArguments(tool, call);
		expect(result).toEqual({ n: 5, b: true, s: "7" });
		expect(call.arguments).toEqual({ n: "5", b: "true", s: 7 });
		expect(result).not.toBe(call.arguments);
	});

	it("infers the argument type from the schema", () => {
		const result = validateToolArguments(tool, callWith({ n: 1, b: true, s: "" }));
		expectTypeOf(result).toEqualTypeOf<{ n: number; b: boolean; s: string }>();
	});

	it("validates formats through ajv-formats", () => {
		const emailTool = toolWith(Type.Object({ to: Type.String({ format: "email" }) }));
		expect(validateToolArguments(emailTool, callWith({ to: "a@example.com" }))).toEqual({ to: "a@example.com" });
		expect(() => validateToolArguments(emailTool, callWith({ to: "not an address" }))).toThrow(
			'  - to: must match format "email"',
		);
	});
});

describe("validateToolArguments: arrays and objects a model sent as JSON-encoded strings", () => {
	const tool = toolWith(
		Type.Object({
			paths: Type.Array(Type.String()),
			options: Type.Object({ depth: Type.Number() }),
			maybe: Type.Optional(Type.Union([Type.Object({ x: Type.Number() }), Type.Null()])),
			text: Type.Optional(Type.String()),
		}),
	);

	it("parses a JSON string where the schema wants an array or object, then coerces inside it", () => {
		const result = validateToolArguments(
			tool,
			callWith({ paths: '["a.ts", "b.ts"]', options: ' {"depth": "2"} ', maybe: '{"x": "1"}', text: "[not parsed]" }),
		);
		expect(result).toEqual({ paths: ["a.ts", "b.ts"], options: { depth: 2 }, maybe: { x: 1 }, text: "[not parsed]" });
	});

	it("parses JSON strings nested inside a parsed JSON string", () => {
		const nestedTool = toolWith(Type.Object({ outer: Type.Object({ inner: Type.Array(Type.Number()) }) }));
		const result = validateToolArguments(nestedTool, callWith({ outer: JSON.stringify({ inner: "[1, 2]" }) }));
		expect(result).toEqual({ outer: { inner: [1, 2] } });
	});

	it("parses arguments that arrived as one JSON string (root level)", () => {
		const rootTool = toolWith(Type.Object({ n: Type.Number() }));
		expect(validateToolArguments(rootTool, callWith('{"n": "4"}'))).toEqual({ n: 4 });
	});

	it("does not parse a JSON string of the wrong kind, and reports the type error", () => {
		expect(() => validateToolArguments(tool, callWith({ paths: '{"a": 1}', options: { depth: 1 } }))).toThrow(
			"  - paths: must be array",
		);
		expect(() => validateToolArguments(tool, callWith({ paths: "[broken", options: { depth: 1 } }))).toThrow(
			"  - paths: must be array",
		);
	});
});

describe("validateToolArguments: error text", () => {
	const tool = toolWith(
		Type.Object({
			path: Type.String(),
			edits: Type.Array(Type.Object({ old: Type.String(), new: Type.String() })),
			mode: Type.Optional(StringEnum(["replace", "append"])),
		}),
	);

	it("lists every failing path, then the received arguments", () => {
		const args = { edits: [{ old: "a" }, { old: 1, new: {} }], mode: "delete" };
		let message = "";
		try {
			validateToolArguments(tool, callWith(args));
		} catch (error) {
			message = (error as Error).message;
		}
		expect(message).toBe(
			[
				'Validation failed for tool "edit":',
				"  - path: must have required property 'path'",
				"  - edits/0/new: must have required property 'new'",
				"  - edits/1/new: must be string",
				'  - mode: must be equal to one of the allowed values: "replace", "append"',
				"",
				"Received arguments:",
				JSON.stringify(args, null, 2),
			].join("\n"),
		);
	});

	it("names the root when the arguments are not an object, and additional properties by name", () => {
		const strict = toolWith(Type.Object({ a: Type.String() }, { additionalProperties: false }));
		expect(() => validateToolArguments(strict, callWith("text"))).toThrow("  - root: must be object");
		expect(() => validateToolArguments(strict, callWith({ a: "x", extra: 1 }))).toThrow(
			'  - root: must NOT have additional properties: "extra"',
		);
	});

	it("applies zero and negative limits (minimum 0, maxItems 0, minimum -5)", () => {
		const limits = toolWith(
			Type.Object({
				count: Type.Integer({ minimum: 0 }),
				none: Type.Array(Type.String(), { maxItems: 0 }),
				offset: Type.Number({ minimum: -5, maximum: 0 }),
				name: Type.String({ minLength: 0, maxLength: 0 }),
			}),
		);
		expect(validateToolArguments(limits, callWith({ count: 0, none: [], offset: -5, name: "" }))).toEqual({
			count: 0,
			none: [],
			offset: -5,
			name: "",
		});
		let message = "";
		try {
			validateToolArguments(limits, callWith({ count: -1, none: ["x"], offset: -6, name: "a" }));
		} catch (error) {
			message = (error as Error).message;
		}
		expect(message).toContain("  - count: must be >= 0");
		expect(message).toContain("  - none: must NOT have more than 0 items");
		expect(message).toContain("  - offset: must be >= -5");
		expect(message).toContain("  - name: must NOT have more than 0 characters");
	});
});

describe("validateToolCall", () => {
	const tools = [toolWith(Type.Object({ n: Type.Number() }), "read"), toolWith(Type.Object({}), "write")];

	it("finds the tool by name and returns its validated arguments", () => {
		expect(validateToolCall(tools, callWith({ n: "3" }, "read"))).toEqual({ n: 3 });
	});

	it("throws for an unknown tool, listing the available tools", () => {
		expect(() => validateToolCall(tools, callWith({}, "delete"))).toThrow(
			'Tool "delete" not found. Available tools: read, write',
		);
		expect(() => validateToolCall([], callWith({}, "delete"))).toThrow(
			'Tool "delete" not found. Available tools: (none)',
		);
	});
});

describe("validateToolArguments: schemas", () => {
	it("an invalid schema gives an error naming the tool", () => {
		const broken = toolWith({ type: "nonsense" } as unknown as TSchema, "broken");
		expect(() => validateToolArguments(broken, callWith({}, "broken"))).toThrow(
			/^Tool "broken" has an invalid parameters schema: schema is invalid: data\/type/,
		);
		const missing = toolWith(undefined as unknown as TSchema, "missing");
		expect(() => validateToolArguments(missing, callWith({}, "missing"))).toThrow(
			'Tool "missing" has no valid parameters schema: expected a JSON Schema object',
		);
	});

	it("compiles each schema object once", () => {
		const compile = vi.spyOn(Ajv.prototype, "compile");
		const tool = toolWith(Type.Object({ once: Type.String() }));
		for (let index = 0; index < 3; index++) validateToolArguments(tool, callWith({ once: "x" }));
		expect(compile).toHaveBeenCalledTimes(1);
	});

	it("two schema objects with the same $id both compile (AJV's registry does not keep them)", () => {
		const first = toolWith(Type.Object({ a: Type.String() }, { $id: "shared" }));
		const second = toolWith(Type.Object({ b: Type.Number() }, { $id: "shared" }));
		expect(validateToolArguments(first, callWith({ a: 1 }))).toEqual({ a: "1" });
		expect(validateToolArguments(second, callWith({ b: "2" }))).toEqual({ b: 2 });
	});
});

describe("validateToolArguments: prototype keys", () => {
	it("keeps __proto__ and constructor as own data and never pollutes Object.prototype", () => {
		const tool = toolWith(
			Type.Object({ count: Type.Number(), nested: Type.Object({ list: Type.Array(Type.Number()) }) }),
		);
		const args = JSON.parse(
			'{"count": "1", "__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}, "nested": "{\\"list\\": [\\"2\\"], \\"__proto__\\": {\\"polluted\\": true}}"}',
		);
		const result = validateToolArguments(tool, callWith(args)) as Record<string, unknown>;
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
		expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
		expect(Object.getOwnPropertyDescriptor(result, "__proto__")?.value).toEqual({ polluted: true });
		expect(result.count).toBe(1);
		const nested = result.nested as Record<string, unknown>;
		expect(Object.getPrototypeOf(nested)).toBe(Object.prototype);
		expect(nested.list).toEqual([2]);
		expect(Object.getOwnPropertyDescriptor(nested, "__proto__")?.value).toEqual({ polluted: true });
	});
});

describe("validateToolArguments: where schemas cannot be compiled", () => {
	afterEach(() => {
		delete (globalThis as { chrome?: unknown }).chrome;
		vi.resetModules();
	});

	it("returns the raw arguments in a browser extension (MV3 forbids code generation)", () => {
		(globalThis as { chrome?: unknown }).chrome = { runtime: { id: "extension-id" } };
		const call = callWith({ n: "5" });
		expect(validateToolArguments(toolWith(Type.Object({ n: Type.Number() })), call)).toBe(call.arguments);
	});

	it("returns the raw arguments when a Content Security Policy blocks AJV's code generation", async () => {
		vi.resetModules();
		const fresh = await import("../src/utils/validation.js");
		vi.spyOn(Ajv.prototype, "compile").mockImplementation(() => {
			throw new EvalError("Refused to evaluate a string as JavaScript because 'unsafe-eval' is not allowed");
		});
		const call = callWith({ n: "5" });
		expect(fresh.validateToolArguments(toolWith(Type.Object({ n: Type.Number() })), call)).toBe(call.arguments);
	});
});

describe("StringEnum", () => {
	it("is a plain string enum schema with description and default", () => {
		const schema = StringEnum(["a", "b"], { description: "pick one", default: "a" });
		expect(JSON.parse(JSON.stringify(schema))).toEqual({
			type: "string",
			enum: ["a", "b"],
			description: "pick one",
			default: "a",
		});
		expectTypeOf<typeof schema.static>().toEqualTypeOf<"a" | "b">();
	});

	it("validates membership", () => {
		const tool = toolWith(Type.Object({ mode: StringEnum(["fast", "slow"]) }));
		expect(validateToolArguments(tool, callWith({ mode: "fast" }))).toEqual({ mode: "fast" });
		expect(() => validateToolArguments(tool, callWith({ mode: "medium" }))).toThrow(
			'  - mode: must be equal to one of the allowed values: "fast", "slow"',
		);
	});

	it("rejects an empty list, non-strings and a default outside the list", () => {
		expect(() => StringEnum([])).toThrow("StringEnum needs at least one value");
		expect(() => StringEnum([1 as unknown as string])).toThrow("StringEnum values must be strings, got 1");
		expect(() => StringEnum(["a"], { default: "b" as "a" })).toThrow('StringEnum default "b" is not one of ["a"]');
	});
});

describe("validateToolArguments: null", () => {
	it("keeps a null the schema allows (number | null) instead of turning it into 0", () => {
		const tool = toolWith(Type.Object({ value: Type.Union([Type.Number(), Type.Null()]) }));
		expect(validateToolArguments(tool, callWith({ value: null }))).toEqual({ value: null });
		expect(validateToolArguments(tool, callWith({ value: "5" }))).toEqual({ value: 5 });
	});

	it("keeps a null matching the null arm of a oneOf [number, null]", () => {
		const tool = toolWith(
			Type.Object({ limit: Type.Unsafe<number | null>({ oneOf: [{ type: "number" }, { type: "null" }] }) }),
		);
		expect(validateToolArguments(tool, callWith({ limit: null }))).toEqual({ limit: null });
	});

	it("keeps null where the type list allows it (type: [number, null])", () => {
		const tool = toolWith(Type.Object({ n: Type.Unsafe<number | null>({ type: ["number", "null"] }) }));
		expect(validateToolArguments(tool, callWith({ n: null }))).toEqual({ n: null });
	});

	it("treats null for an optional number as left out, not as 0", () => {
		const tool = toolWith(Type.Object({ path: Type.String(), offset: Type.Optional(Type.Number()) }));
		expect(validateToolArguments(tool, callWith({ path: "a.ts", offset: null }))).toEqual({ path: "a.ts" });
	});

	it("rejects null for a required number with a type error, instead of passing 0", () => {
		const tool = toolWith(Type.Object({ count: Type.Number() }));
		expect(() => validateToolArguments(tool, callWith({ count: null }))).toThrow("  - count: must be number");
	});

	it("still coerces strings a model sends for numbers, integers and booleans, and leaves non-numeric text an error", () => {
		const tool = toolWith(Type.Object({ n: Type.Integer(), flag: Type.Optional(Type.Boolean()) }));
		expect(validateToolArguments(tool, callWith({ n: " 42 ", flag: "false" }))).toEqual({ n: 42, flag: false });
		expect(() => validateToolArguments(tool, callWith({ n: "4.5" }))).toThrow("  - n: must be integer");
		expect(() => validateToolArguments(tool, callWith({ n: "five" }))).toThrow("  - n: must be integer");
	});
});
