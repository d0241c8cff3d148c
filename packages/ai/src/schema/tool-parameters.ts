// What a tool's parameters (and a structured answer's schema) may be, and the type a valid value
// has: a TypeBox schema (`Static`), a Standard Schema of any library (its output type), or a plain
// JSON Schema object (an object of unknown shape: JSON Schema carries no TypeScript type).
import type { Static, TSchema } from "@sinclair/typebox";
import type { StandardSchemaOutput, StandardSchemaV1 } from "./standard-schema.js";

/** A plain JSON Schema object such as `{ type: "object", properties: {…}, required: […] }`. */
export type JsonSchemaObject = { readonly [keyword: string]: unknown };

/** A TypeBox schema, a Standard Schema (Zod 4, Valibot, ArkType, …) or a plain JSON Schema object. */
export type ToolParameters = TSchema | StandardSchemaV1 | JsonSchemaObject;

/**
 * The type of a value that passed the schema: TypeBox `Static`, a Standard Schema's output type
 * (after the library's transforms and defaults), `Record<string, unknown>` for plain JSON Schema.
 */
export type SchemaOutput<TParameters> = TParameters extends TSchema
	? Static<TParameters>
	: TParameters extends StandardSchemaV1
		? StandardSchemaOutput<TParameters>
		: Record<string, unknown>;
