// The rules strict mode (constrained decoding) holds a schema to: every object closed with
// `additionalProperties: false` and every property listed in `required`. OpenAI's Chat
// Completions and Responses, Mistral and Anthropic reject a strict schema that breaks them.
// @see https://platform.openai.com/docs/guides/structured-outputs#supported-schemas
// @see https://docs.anthropic.com/en/docs/build-with-claude/structured-outputs

/**
 * True when every object in the schema is closed (`additionalProperties: false`) and requires all
 * its properties: what OpenAI's (and Mistral's) strict mode demands of a schema.
 */
export function meetsStrictModeRules(schema: unknown): boolean {
	return findStrictModeProblem(schema) === undefined;
}

/**
 * The first place the schema breaks the strict-mode rules, as `<path>: <what is wrong>` (the path
 * in JSON Pointer style from the schema root, "root" for the root), or undefined when it meets them.
 */
export function findStrictModeProblem(schema: unknown, path = ""): string | undefined {
	if (typeof schema !== "object" || schema === null) return undefined;
	const node = schema as Record<string, unknown>;
	const where = path === "" ? "root" : path;
	if (node.type === "object" || node.properties !== undefined) {
		if (node.additionalProperties !== false) return `${where}: the object needs additionalProperties: false`;
		const properties = (node.properties ?? {}) as Record<string, unknown>;
		const required = new Set(Array.isArray(node.required) ? node.required : []);
		for (const [key, value] of Object.entries(properties)) {
			if (!required.has(key))
				return `${where}: the property "${key}" must be required (make it nullable instead of optional)`;
			const problem = findStrictModeProblem(value, `${path}/properties/${key}`);
			if (problem) return problem;
		}
	}
	if (node.items !== undefined) {
		const problem = findStrictModeProblem(node.items, `${path}/items`);
		if (problem) return problem;
	}
	for (const keyword of ["anyOf", "allOf", "oneOf"]) {
		const branches = node[keyword];
		if (!Array.isArray(branches)) continue;
		for (let index = 0; index < branches.length; index++) {
			const problem = findStrictModeProblem(branches[index], `${path}/${keyword}/${index}`);
			if (problem) return problem;
		}
	}
	for (const keyword of ["$defs", "definitions"]) {
		const definitions = node[keyword];
		if (typeof definitions !== "object" || definitions === null) continue;
		for (const [name, value] of Object.entries(definitions)) {
			const problem = findStrictModeProblem(value, `${path}/${keyword}/${name}`);
			if (problem) return problem;
		}
	}
	return undefined;
}
