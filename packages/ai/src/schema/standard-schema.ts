// The Standard Schema and Standard JSON Schema interfaces, as types only. Their authors ask
// libraries to copy the types rather than depend on a package, so accepting Zod, Valibot, ArkType
// (and any other library that implements them) costs @keel/ai no runtime dependency.
// @see https://standardschema.dev (Standard Schema v1)
// @see https://standardschema.dev/json-schema (Standard JSON Schema v1)

/** A schema of any Standard Schema library: a `~standard` property with `validate`. */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
	readonly "~standard": StandardSchemaV1Props<Input, Output>;
}

/** The `~standard` property of a Standard Schema. */
export interface StandardSchemaV1Props<Input = unknown, Output = Input> {
	/** Always 1. */
	readonly version: 1;
	/** The library's name: "zod", "valibot", "arktype", … */
	readonly vendor: string;
	/** Validates a value; a library may answer with a promise (asynchronous checks). */
	readonly validate: (value: unknown) => StandardSchemaV1Result<Output> | Promise<StandardSchemaV1Result<Output>>;
	/** Carries the input and output types for inference; never set at run time. */
	readonly types?: StandardSchemaV1Types<Input, Output> | undefined;
	/** Standard JSON Schema: how the library converts the schema to JSON Schema, when it can. */
	readonly jsonSchema?: StandardJSONSchemaV1Converter | undefined;
}

export type StandardSchemaV1Result<Output> = StandardSchemaV1Success<Output> | StandardSchemaV1Failure;

export interface StandardSchemaV1Success<Output> {
	readonly value: Output;
	readonly issues?: undefined;
}

export interface StandardSchemaV1Failure {
	readonly issues: ReadonlyArray<StandardSchemaV1Issue>;
}

export interface StandardSchemaV1Issue {
	readonly message: string;
	/** Where the problem is: keys, or segments carrying a key (Valibot). */
	readonly path?: ReadonlyArray<PropertyKey | StandardSchemaV1PathSegment> | undefined;
}

export interface StandardSchemaV1PathSegment {
	readonly key: PropertyKey;
}

export interface StandardSchemaV1Types<Input = unknown, Output = Input> {
	readonly input: Input;
	readonly output: Output;
}

/** Standard JSON Schema's converter: the schema as JSON Schema, for the values it takes or gives. */
export interface StandardJSONSchemaV1Converter {
	readonly input: (options: StandardJSONSchemaV1Options) => Record<string, unknown>;
	readonly output: (options: StandardJSONSchemaV1Options) => Record<string, unknown>;
}

export interface StandardJSONSchemaV1Options {
	/** "draft-2020-12", "draft-07", "openapi-3.0" or a library's own. */
	readonly target: "draft-2020-12" | "draft-07" | "openapi-3.0" | (string & {});
	readonly libraryOptions?: Record<string, unknown> | undefined;
}

/** The output type of a Standard Schema (what `validate` gives back). */
export type StandardSchemaOutput<TSchema extends StandardSchemaV1> = NonNullable<
	TSchema["~standard"]["types"]
>["output"];

/** True for a value with a `~standard` property holding a `validate` function (ArkType's types are functions). */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
	if ((typeof value !== "object" && typeof value !== "function") || value === null) return false;
	const props = (value as { "~standard"?: unknown })["~standard"];
	return (
		typeof props === "object" && props !== null && typeof (props as { validate?: unknown }).validate === "function"
	);
}
