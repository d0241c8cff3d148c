// The JSON Schema sent to the provider for a tool's parameters or a structured answer's schema.
// TypeBox schemas and plain JSON Schema objects are JSON Schema already and go out as they are. A
// Standard Schema is converted by its own library through Standard JSON Schema
// (`~standard.jsonSchema.input`): the input side, because the model writes the value the schema
// then parses (before the library's transforms and defaults).
// @see https://standardschema.dev/json-schema
import { isStandardSchema, type StandardSchemaV1 } from "./standard-schema.js";

/**
 * The draft asked of a library. Draft 2020-12 is the one every Standard JSON Schema library
 * supports and the one the APIs document (OpenAI structured outputs, Gemini `parametersJsonSchema`,
 * Anthropic `input_schema`).
 */
const TARGET = "draft-2020-12";

/** One conversion per schema object: a tool's schema is converted once, not on every request. */
const convertedSchemas = new WeakMap<object, Record<string, unknown>>();

/**
 * The JSON Schema of a TypeBox schema, a plain JSON Schema object or a Standard Schema. Throws a
 * clear error (naming `subject`, e.g. `Tool "read"`) for anything else, and for a Standard Schema
 * whose library offers no JSON Schema conversion or fails to convert it.
 */
export function toJsonSchema(schema: unknown, subject = "The schema"): Record<string, unknown> {
	if (isStandardSchema(schema)) {
		const cached = convertedSchemas.get(schema);
		if (cached) return cached;
		const converted = convertStandardSchema(schema, subject);
		convertedSchemas.set(schema, converted);
		return converted;
	}
	if (typeof schema !== "object" || schema === null || Array.isArray(schema)) {
		throw new Error(
			`${subject} has no usable schema: expected a JSON Schema object, a TypeBox schema or a Standard Schema (Zod, Valibot, ArkType), got ${describe(schema)}`,
		);
	}
	return schema as Record<string, unknown>;
}

function convertStandardSchema(schema: StandardSchemaV1, subject: string): Record<string, unknown> {
	const props = schema["~standard"];
	const vendor = String(props.vendor);
	const converter = props.jsonSchema;
	if (!converter || typeof converter.input !== "function") {
		throw new Error(
			`${subject} has a ${vendor} schema that cannot be converted to JSON Schema (it does not implement Standard JSON Schema, https://standardschema.dev/json-schema): ${conversionHint(vendor)}`,
		);
	}
	let converted: unknown;
	try {
		converted = converter.input({ target: TARGET });
	} catch (error) {
		throw new Error(
			`${subject} has a ${vendor} schema that ${vendor} cannot convert to JSON Schema: ${error instanceof Error ? error.message : String(error)}`,
		);
	}
	if (typeof converted !== "object" || converted === null || Array.isArray(converted)) {
		throw new Error(`${subject} has a ${vendor} schema whose JSON Schema conversion gave ${describe(converted)}`);
	}
	// `$schema` names the draft; the APIs do not need it and some strict validators reject it.
	const { $schema: _draft, ...jsonSchema } = converted as Record<string, unknown>;
	return jsonSchema;
}

/** How to get a JSON Schema from the libraries we know. */
function conversionHint(vendor: string): string {
	switch (vendor) {
		case "valibot":
			return "wrap it with toStandardJsonSchema() from @valibot/to-json-schema";
		case "zod":
			return "use Zod 4.2 or later (Zod 3 schemas: convert with zod-to-json-schema and pass the JSON Schema)";
		case "arktype":
			return "use ArkType 2.1.28 or later";
		default:
			return `convert it with ${vendor}'s own JSON Schema converter and pass the JSON Schema object instead`;
	}
}

function describe(value: unknown): string {
	if (value === null) return "null";
	if (Array.isArray(value)) return "an array";
	return typeof value === "object" ? "an object" : typeof value;
}
