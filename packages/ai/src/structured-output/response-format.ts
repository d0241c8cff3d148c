import { findStrictModeProblem, meetsStrictModeRules } from "../schema/strict-mode-rules.js";
import { toJsonSchema } from "../schema/to-json-schema.js";
import type { ToolParameters } from "../schema/tool-parameters.js";
import type { ResponseFormat } from "../types.js";

export { meetsStrictModeRules };

/** OpenAI's rule for a schema or function name, the strictest of the APIs. */
const FORMAT_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

export const DEFAULT_RESPONSE_FORMAT_NAME = "response";

/** What the caller says about the answer's schema. */
export interface ResponseFormatInput {
	/** A TypeBox schema, a Standard Schema (converted by its library) or a JSON Schema object. */
	schema: ToolParameters;
	name?: string;
	description?: string;
	strict?: boolean;
}

/**
 * The `ResponseFormat` for a schema (a Standard Schema converted to JSON Schema by its library).
 * Throws for a name the APIs reject, a schema whose root is not an object (every API's JSON-schema
 * output and every tool takes an object), and `strict: true` with a schema that breaks the
 * strict-mode rules (the API would reject it). `strict` defaults to whether the schema already
 * meets the rules, so a schema written for strict mode gets constrained decoding without asking
 * and any other still works.
 */
export function buildResponseFormat(input: ResponseFormatInput): ResponseFormat {
	const name = input.name ?? DEFAULT_RESPONSE_FORMAT_NAME;
	if (!FORMAT_NAME.test(name)) {
		throw new Error(
			`Structured output name ${JSON.stringify(name)} is not accepted by the APIs: use 1 to 64 letters, digits, "_" or "-"`,
		);
	}
	const given = input.schema as unknown;
	if ((typeof given !== "object" && typeof given !== "function") || given === null || Array.isArray(given)) {
		throw new Error(
			`Structured output "${name}" needs a schema object (a TypeBox schema such as Type.Object({...}), a Standard Schema such as z.object({...}), or a JSON Schema object)`,
		);
	}
	const schema = toJsonSchema(given, `Structured output "${name}"`);
	const rootType = schema.type;
	if (rootType !== "object") {
		throw new Error(
			`Structured output "${name}" needs an object schema at the root, got type ${JSON.stringify(rootType)}: wrap the value in Type.Object({...})`,
		);
	}
	if (input.strict === true) {
		const problem = findStrictModeProblem(schema);
		if (problem) {
			throw new Error(
				`Structured output "${name}" asks for strict mode, but its schema breaks the strict-mode rules (every object closed with additionalProperties: false, every property required): ${problem}. Close the objects (TypeBox { additionalProperties: false }, z.strictObject, v.strictObject) and make optional properties nullable, or leave strict unset`,
			);
		}
	}
	const format: ResponseFormat = {
		type: "json_schema",
		name,
		schema,
		strict: input.strict ?? meetsStrictModeRules(schema),
	};
	if (input.description !== undefined) format.description = input.description;
	return format;
}
