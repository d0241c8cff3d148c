import { type TUnsafe, Type } from "@sinclair/typebox";

/**
 * A string enum as the plain JSON Schema `{type: "string", enum: [...]}`. TypeBox's own
 * `Type.Union(Type.Literal(...))` becomes `anyOf` of `const`, which Google's function-calling
 * schema rejects; this shape works with every provider and still infers the union type.
 */
export function StringEnum<const Values extends readonly string[]>(
	values: Values,
	options: { description?: string; default?: Values[number] } = {},
): TUnsafe<Values[number]> {
	if (!Array.isArray(values) || values.length === 0) {
		throw new Error("StringEnum needs at least one value");
	}
	for (const value of values) {
		if (typeof value !== "string") throw new Error(`StringEnum values must be strings, got ${JSON.stringify(value)}`);
	}
	if (options.default !== undefined && !values.includes(options.default)) {
		throw new Error(`StringEnum default ${JSON.stringify(options.default)} is not one of ${JSON.stringify(values)}`);
	}
	return Type.Unsafe<Values[number]>({
		type: "string",
		enum: [...values],
		...(options.description !== undefined && { description: options.description }),
		...(options.default !== undefined && { default: options.default }),
	});
}
