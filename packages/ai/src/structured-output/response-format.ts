import type { TSchema } from "@sinclair/typebox";
import type { ResponseFormat } from "../types.js";

/** OpenAI's rule for a schema or function name, the strictest of the APIs. */
const FORMAT_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

export const DEFAULT_RESPONSE_FORMAT_NAME = "response";

/** What the caller says about the answer's schema. */
export interface ResponseFormatInput {
	schema: TSchema;
	name?: string;
	description?: string;
	strict?: boolean;
}

/**
 * The `ResponseFormat` for a schema. Throws for a name the APIs reject or a schema whose root is
 * not an object (every API's JSON-schema output and every tool takes an object). `strict`
 * defaults to whether the schema already meets the strict-mode rules, so a schema written for
 * strict mode gets constrained decoding without asking and any other still works.
 */
export function buildResponseFormat(input: ResponseFormatInput): ResponseFormat {
	const name = input.name ?? DEFAULT_RESPONSE_FORMAT_NAME;
	if (!FORMAT_NAME.test(name)) {
		throw new Error(
			`Structured output name ${JSON.stringify(name)} is not accepted by the APIs: use 1 to 64 letters, digits, "_" or "-"`,
		);
	}
	const schema = input.schema as unknown;
	if (typeof schema !== "object" || schema === null || Array.isArray(schema)) {
		throw new Error(`Structured output "${name}" needs a schema object (a TypeBox schema such as Type.Object({...}))`);
	}
	const rootType = (schema as { type?: unknown }).type;
	if (rootType !== "object") {
		throw new Error(
			`Structured output "${name}" needs an object schema at the root, got type ${JSON.stringify(rootType)}: wrap the value in Type.Object({...})`,
		);
	}
	const format: ResponseFormat = {
		type: "json_schema",
		name,
		schema: input.schema,
		strict: input.strict ?? meetsStrictModeRules(input.schema),
	};
	if (input.description !== undefined) format.description = input.description;
	return format;
}

/**
 * True when every object in the schema is closed (`additionalProperties: false`) and requires all
 * its properties: what OpenAI's (and Mistral's) strict mode demands of a schema.
 * @see https://platform.openai.com/docs/guides/structured-outputs#supported-schemas
 */
export function meetsStrictModeRules(schema: unknown): boolean {
	if (typeof schema !== "object" || schema === null) return true;
	const node = schema as Record<string, unknown>;
	if (node.type === "object" || node.properties !== undefined) {
		if (node.additionalProperties !== false) return false;
		const properties = (node.properties ?? {}) as Record<string, unknown>;
		const required = new Set(Array.isArray(node.required) ? node.required : []);
		for (const [key, value] of Object.entries(properties)) {
			if (!required.has(key) || !meetsStrictModeRules(value)) return false;
		}
	}
	if (node.items !== undefined && !meetsStrictModeRules(node.items)) return false;
	for (const keyword of ["anyOf", "allOf", "oneOf"]) {
		const branches = node[keyword];
		if (Array.isArray(branches) && !branches.every(meetsStrictModeRules)) return false;
	}
	for (const keyword of ["$defs", "definitions"]) {
		const definitions = node[keyword];
		if (typeof definitions === "object" && definitions !== null) {
			if (!Object.values(definitions).every(meetsStrictModeRules)) return false;
		}
	}
	return true;
}
