// Validation of tool-call arguments (and structured answers) against their schema. A TypeBox
// schema or a plain JSON Schema object is checked with AJV and the repairs below; a Standard Schema
// (Zod, Valibot, ArkType, …) with its own library's `validate`, whose issues are listed the same
// way, and whose output (transforms and defaults applied) is the validated value.
// @see https://standardschema.dev
//
// Models get types slightly wrong all the time ("5" for 5, "true" for true), send null for an
// optional argument they mean to leave out, and some send an array or object argument as a
// JSON-encoded string. These are repaired here so a tool receives what its schema promises;
// anything else fails with one line per problem.
//
// The repairs are Keel's own, driven by the errors of a validator that does not coerce: AJV's
// `coerceTypes` also turns null into 0, "" or false wherever a scalar is expected (inside an
// `anyOf`/`oneOf` too), which would change valid nulls (`number | null`) into numbers.
//
// AJV is created on the first validation, not when @keel/ai is imported (create-ajv.cjs says how):
// evaluating AJV and ajv-formats would add ≈10 ms to every cold start, and many programs never
// validate a tool call. The first validation pays it once.

import type { Ajv, ErrorObject, ValidateFunction } from "ajv";
import { isStandardSchema, type StandardSchemaV1, type StandardSchemaV1Result } from "../schema/standard-schema.js";
import type { SchemaOutput, ToolParameters } from "../schema/tool-parameters.js";
import type { Tool, ToolCall } from "../types.js";
import { createAjv } from "./create-ajv.cjs";
import { parseJsonWithRepair } from "./json-repair.js";
import { setOwnProperty } from "./streaming-json.js";

/**
 * A JSON string inside a JSON string inside ...: more rounds than this is not a model slip. Each
 * round repairs what the last validation reported, so nesting needs one round per level.
 */
const MAX_REPAIR_ROUNDS = 8;

/** `undefined`: not created yet; `null`: cannot run here (CSP forbids code generation). */
let sharedAjv: Ajv | null | undefined;
const compiledValidators = new WeakMap<object, ValidateFunction>();

/**
 * Finds the tool named by the call and validates its arguments (see `validateToolArguments`).
 * Throws `Tool "<name>" not found` (listing the available tools) when no tool has that name.
 */
export function validateToolCall(tools: readonly Tool[], toolCall: ToolCall): Record<string, unknown> {
	const tool = tools.find((candidate) => candidate.name === toolCall.name);
	if (!tool) {
		const available = tools.map((candidate) => candidate.name).join(", ") || "(none)";
		throw new Error(`Tool "${toolCall.name}" not found. Available tools: ${available}`);
	}
	return validateToolArguments(tool, toolCall) as Record<string, unknown>;
}

/**
 * Validates a tool call's arguments against the tool's parameters schema and returns a coerced
 * copy (the call's own object is never changed): a scalar of the wrong type is coerced to the
 * schema's type ("5" → 5, "true" → true, 7 → "7"), null for an optional property the schema does
 * not allow null for is removed (as if left out), and a JSON string where the schema wants an
 * object or array is parsed. A value the schema accepts is never changed (null stays null where
 * null is allowed). Throws an error listing every
 * failing path, then the received arguments. Where schemas cannot be compiled (a browser
 * extension, or a Content Security Policy without 'unsafe-eval') the raw arguments are returned.
 */
export function validateToolArguments<TParameters extends ToolParameters>(
	tool: Tool<TParameters>,
	toolCall: ToolCall,
): SchemaOutput<TParameters> {
	return requireSynchronous(checkToolArguments(tool, toolCall), toolLabel(tool.name), "checkToolArguments");
}

/**
 * `validateToolArguments` for any schema library: the validated arguments at once, or a promise of
 * them when a Standard Schema library validates asynchronously (async refinements). A Standard
 * Schema's value is its library's output (transforms and defaults applied); its issues make the
 * error, one `  - <path>: <message>` line each, as AJV's do. Throws (or rejects) on invalid input.
 */
export function checkToolArguments<TParameters extends ToolParameters>(
	tool: Tool<TParameters>,
	toolCall: ToolCall,
): SchemaOutput<TParameters> | Promise<SchemaOutput<TParameters>> {
	return checkAgainstSchema(tool.parameters, toolCall.arguments ?? {}, toolLabel(tool.name)) as
		| SchemaOutput<TParameters>
		| Promise<SchemaOutput<TParameters>>;
}

/**
 * Validates any JSON value against a schema the way `validateToolArguments` validates
 * arguments (a coerced copy, JSON-encoded objects and arrays parsed, every failing path listed),
 * for structured output. `name` appears in errors: `Validation failed for schema "<name>":`.
 */
export function validateJsonValue<TValue extends ToolParameters>(
	schema: TValue,
	value: unknown,
	name: string,
): SchemaOutput<TValue> {
	return requireSynchronous(checkJsonValue(schema, value, name), schemaLabel(name), "checkJsonValue");
}

/** `validateJsonValue`, or a promise when a Standard Schema library validates asynchronously. */
export function checkJsonValue<TValue extends ToolParameters>(
	schema: TValue,
	value: unknown,
	name: string,
): SchemaOutput<TValue> | Promise<SchemaOutput<TValue>> {
	return checkAgainstSchema(schema, value, schemaLabel(name)) as SchemaOutput<TValue> | Promise<SchemaOutput<TValue>>;
}

function toolLabel(name: string): ValidationLabel {
	return { subject: `Tool "${name}"`, schema: "parameters schema", heading: `tool "${name}"`, received: "arguments" };
}

function schemaLabel(name: string): ValidationLabel {
	return { subject: `Schema "${name}"`, schema: "schema", heading: `schema "${name}"`, received: "value" };
}

function requireSynchronous<T>(result: T | Promise<T>, label: ValidationLabel, asyncName: string): T {
	if (!(result instanceof Promise)) return result;
	// Nothing must be left unhandled: the caller gets the error below, not the rejection.
	result.then(undefined, () => {});
	throw new Error(
		`${label.subject} has a ${label.schema} that validates asynchronously (a Standard Schema with asynchronous checks): use ${asyncName}, which returns a promise`,
	);
}

function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
	return typeof (value as { then?: unknown } | null)?.then === "function";
}

/** The AJV path (TypeBox, JSON Schema) or the library's own validator (Standard Schema). */
function checkAgainstSchema(schema: unknown, value: unknown, label: ValidationLabel): unknown {
	if (isStandardSchema(schema)) return validateWithStandardSchema(schema, value, label);
	return validateAgainstSchema(schema, value, label);
}

function validateWithStandardSchema(
	schema: StandardSchemaV1,
	value: unknown,
	label: ValidationLabel,
): unknown | Promise<unknown> {
	const copy = copyArguments(label, value);
	let result: StandardSchemaV1Result<unknown> | Promise<StandardSchemaV1Result<unknown>>;
	try {
		result = schema["~standard"].validate(copy);
	} catch (error) {
		throw new Error(
			`${label.subject}: its ${label.schema} threw while validating: ${(error as Error)?.message ?? String(error)}`,
		);
	}
	// A native promise whatever thenable the library gave, so callers can tell it by `instanceof`
	// (a validated value may itself have a `then` key).
	if (isThenable(result)) return Promise.resolve(result).then((settled) => readStandardResult(settled, label, value));
	return readStandardResult(result, label, value);
}

function readStandardResult(
	result: StandardSchemaV1Result<unknown>,
	label: ValidationLabel,
	received: unknown,
): unknown {
	if (!result.issues) return result.value;
	const lines = result.issues.map((issue) => `  - ${describeIssuePath(issue.path)}: ${issue.message}`);
	throw new Error(formatProblems(label, lines, received));
}

/** A Standard Schema issue's path as `a/0/b` (AJV's paths read the same), "root" when empty. */
function describeIssuePath(path: ReadonlyArray<PropertyKey | { key: PropertyKey }> | undefined): string {
	if (!path || path.length === 0) return "root";
	return path.map((segment) => String(typeof segment === "object" ? segment.key : segment)).join("/");
}

interface ValidationLabel {
	/** Starts a sentence about the schema: `Tool "read"`. */
	subject: string;
	/** What the schema is called after the subject: "parameters schema". */
	schema: string;
	/** Follows "Validation failed for": `tool "read"`. */
	heading: string;
	/** What the model sent: "arguments". */
	received: string;
}

function validateAgainstSchema(schemaValue: unknown, value: unknown, label: ValidationLabel): unknown {
	if (isBrowserExtension()) return value;
	const validate = getValidator(schemaValue, label);
	if (!validate) return value;

	const holder: { root: unknown } = { root: copyArguments(label, value) };
	let valid = validate(holder.root);
	// Null properties put back because their removal made a required property missing.
	const requiredNulls = new Set<string>();
	for (let round = 0; !valid && round < MAX_REPAIR_ROUNDS; round++) {
		const errors = validate.errors ?? [];
		const restored = restoreRequiredNulls(holder, errors, requiredNulls);
		const parsed = parseJsonEncodedValues(holder, errors);
		const coerced = coerceScalars(holder, errors, requiredNulls);
		if (!restored && !parsed && !coerced) break;
		valid = validate(holder.root);
	}
	if (!valid) throw new Error(formatValidationError(label, validate.errors ?? [], value));
	return holder.root;
}

function getValidator(schema: unknown, label: ValidationLabel): ValidateFunction | undefined {
	if (schema === null || (typeof schema !== "object" && typeof schema !== "boolean")) {
		throw new Error(
			`${label.subject} has no valid ${label.schema}: expected a JSON Schema object, a TypeBox schema or a Standard Schema (Zod, Valibot, ArkType)`,
		);
	}
	if (typeof schema === "object") {
		const cached = compiledValidators.get(schema);
		if (cached) return cached;
	}
	const ajv = getAjv();
	if (!ajv) return undefined;
	let validate: ValidateFunction;
	try {
		validate = ajv.compile(schema as object);
	} catch (error) {
		if (isCodeGenerationBlocked(error)) {
			sharedAjv = null;
			return undefined;
		}
		throw new Error(`${label.subject} has an invalid ${label.schema}: ${(error as Error).message}`);
	} finally {
		// Our WeakMap is the cache; AJV's own (a Map keyed by schema) would keep every schema alive,
		// and a second schema object with the same $id would fail to compile.
		if (typeof schema === "object") ajv.removeSchema(schema as object);
	}
	if (typeof schema === "object") compiledValidators.set(schema, validate);
	return validate;
}

function getAjv(): Ajv | null {
	if (sharedAjv !== undefined) return sharedAjv;
	try {
		// logger: false, because a library should not print; strict: false ignores unknown keywords.
		// No coerceTypes: coerceScalars repairs types from the errors, without AJV's null coercion.
		sharedAjv = createAjv({ allErrors: true, strict: false, logger: false });
	} catch {
		sharedAjv = null;
	}
	return sharedAjv;
}

/** Chrome MV3 extensions forbid `new Function`, which AJV's compiled validators need. */
function isBrowserExtension(): boolean {
	const chrome = (globalThis as { chrome?: { runtime?: { id?: unknown } } }).chrome;
	return Boolean(chrome?.runtime?.id);
}

function isCodeGenerationBlocked(error: unknown): boolean {
	if (error instanceof EvalError) return true;
	return (
		error instanceof Error && /unsafe-eval|Content Security Policy|Code generation from strings/i.test(error.message)
	);
}

function copyArguments(label: ValidationLabel, value: unknown): unknown {
	try {
		return structuredClone(value);
	} catch (error) {
		throw new Error(`${label.subject} ${label.received} cannot be copied for validation: ${(error as Error).message}`);
	}
}

/**
 * Replaces JSON-encoded strings where a `type` error says an object or array was expected, when
 * the string parses to that kind. Returns whether anything changed (so validation runs again).
 */
function parseJsonEncodedValues(holder: { root: unknown }, errors: readonly ErrorObject[]): boolean {
	let changed = false;
	for (const error of errors) {
		if (error.keyword !== "type") continue;
		const expected = String((error.params as { type?: unknown }).type ?? "").split(",");
		if (!expected.includes("object") && !expected.includes("array")) continue;
		const segments = pointerSegments(error.instancePath);
		const value = readPath(holder.root, segments);
		if (typeof value !== "string") continue;
		const text = value.trim();
		if (!text.startsWith("{") && !text.startsWith("[")) continue;
		let parsed: unknown;
		try {
			parsed = parseJsonWithRepair(text);
		} catch {
			continue;
		}
		const kind = Array.isArray(parsed) ? "array" : typeof parsed === "object" && parsed !== null ? "object" : "";
		if (!expected.includes(kind)) continue;
		writePath(holder, segments, parsed);
		changed = true;
	}
	return changed;
}

/** Removed null properties, by instance path, so a `required` error can put them back. */
const removedNulls = new WeakMap<{ root: unknown }, Set<string>>();

/**
 * Repairs scalars a `type` error names, when the value converts cleanly to one of the types the
 * schema allows there (all `type` errors at one path together, as an `anyOf` reports one per arm):
 * a numeric string to a number or integer, "true"/"false" to a boolean, a number or boolean to a
 * string. Null for an object property is removed (the model meant to leave an optional argument
 * out); should the property be required, `restoreRequiredNulls` puts it back. Returns whether
 * anything changed.
 */
function coerceScalars(holder: { root: unknown }, errors: readonly ErrorObject[], requiredNulls: Set<string>): boolean {
	const expectedByPath = new Map<string, Set<string>>();
	for (const error of errors) {
		if (error.keyword !== "type") continue;
		const types = String((error.params as { type?: unknown }).type ?? "").split(",");
		const expected = expectedByPath.get(error.instancePath) ?? new Set<string>();
		for (const type of types) expected.add(type);
		expectedByPath.set(error.instancePath, expected);
	}
	let changed = false;
	for (const [instancePath, expected] of expectedByPath) {
		const segments = pointerSegments(instancePath);
		if (segments.length === 0) continue;
		const value = readPath(holder.root, segments);
		if (value === null) {
			if (expected.has("null") || requiredNulls.has(instancePath)) continue;
			const parent = readPath(holder.root, segments.slice(0, -1));
			if (typeof parent !== "object" || parent === null || Array.isArray(parent)) continue;
			delete (parent as Record<string, unknown>)[segments[segments.length - 1]];
			const removed = removedNulls.get(holder) ?? new Set<string>();
			removed.add(instancePath);
			removedNulls.set(holder, removed);
			changed = true;
			continue;
		}
		const coerced = coerceScalar(value, expected);
		if (coerced === undefined) continue;
		writePath(holder, segments, coerced);
		changed = true;
	}
	return changed;
}

/** Puts back a null whose removal left a required property missing; it then stays an error. */
function restoreRequiredNulls(
	holder: { root: unknown },
	errors: readonly ErrorObject[],
	requiredNulls: Set<string>,
): boolean {
	const removed = removedNulls.get(holder);
	if (!removed) return false;
	let changed = false;
	for (const error of errors) {
		const missing = (error.params as { missingProperty?: unknown }).missingProperty;
		if (error.keyword !== "required" || typeof missing !== "string") continue;
		const path = `${error.instancePath}/${missing.replace(/~/g, "~0").replace(/\//g, "~1")}`;
		if (!removed.has(path)) continue;
		removed.delete(path);
		requiredNulls.add(path);
		writePath(holder, pointerSegments(path), null);
		changed = true;
	}
	return changed;
}

const NUMERIC_TEXT = /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/;

/** The value converted to the first type of `expected` it converts to cleanly, or undefined. */
function coerceScalar(value: unknown, expected: ReadonlySet<string>): unknown {
	if (typeof value === "string") {
		if ((expected.has("number") || expected.has("integer")) && NUMERIC_TEXT.test(value)) {
			const number = Number(value);
			if (expected.has("number") || Number.isInteger(number)) return number;
		}
		if (expected.has("boolean") && (value === "true" || value === "false")) return value === "true";
		return undefined;
	}
	if (typeof value === "number") {
		if (expected.has("string")) return String(value);
		if (expected.has("boolean") && (value === 0 || value === 1)) return value === 1;
		return undefined;
	}
	if (typeof value === "boolean") {
		if (expected.has("string")) return String(value);
		if (expected.has("number") || expected.has("integer")) return value ? 1 : 0;
	}
	return undefined;
}

function pointerSegments(instancePath: string): string[] {
	if (instancePath === "") return [];
	return instancePath
		.slice(1)
		.split("/")
		.map((segment) => segment.replace(/~1/g, "/").replace(/~0/g, "~"));
}

function readPath(root: unknown, segments: readonly string[]): unknown {
	let current = root;
	for (const segment of segments) {
		if (typeof current !== "object" || current === null || !Object.hasOwn(current, segment)) return undefined;
		current = (current as Record<string, unknown>)[segment];
	}
	return current;
}

function writePath(holder: { root: unknown }, segments: readonly string[], value: unknown): void {
	if (segments.length === 0) {
		holder.root = value;
		return;
	}
	const parent = readPath(holder.root, segments.slice(0, -1));
	const key = segments[segments.length - 1];
	if (Array.isArray(parent)) parent[Number(key)] = value;
	else if (typeof parent === "object" && parent !== null) setOwnProperty(parent as Record<string, unknown>, key, value);
}

/**
 * `Validation failed for tool "<name>":`, one `  - <path>: <message>` line per problem, a blank
 * line, then `Received arguments:` and the arguments as the model sent them (for a schema:
 * `schema "<name>"` and `Received value:`).
 */
function formatValidationError(label: ValidationLabel, errors: readonly ErrorObject[], received: unknown): string {
	return formatProblems(
		label,
		errors.map((error) => `  - ${describePath(error)}: ${describeProblem(error)}`),
		received,
	);
}

function formatProblems(label: ValidationLabel, problems: readonly string[], received: unknown): string {
	const lines = new Set(problems);
	return [
		`Validation failed for ${label.heading}:`,
		...lines,
		"",
		`Received ${label.received}:`,
		JSON.stringify(received, null, 2) ?? String(received),
	].join("\n");
}

function describePath(error: ErrorObject): string {
	const base = error.instancePath.slice(1);
	const missing = (error.params as { missingProperty?: unknown }).missingProperty;
	if (error.keyword === "required" && typeof missing === "string") return base ? `${base}/${missing}` : missing;
	return base || "root";
}

function describeProblem(error: ErrorObject): string {
	const message = error.message ?? `fails "${error.keyword}"`;
	const extra = (error.params as { additionalProperty?: unknown }).additionalProperty;
	if (error.keyword === "additionalProperties" && typeof extra === "string") return `${message}: "${extra}"`;
	if (error.keyword === "enum") {
		const allowed = (error.params as { allowedValues?: unknown }).allowedValues;
		if (Array.isArray(allowed)) return `${message}: ${allowed.map((value) => JSON.stringify(value)).join(", ")}`;
	}
	return message;
}
