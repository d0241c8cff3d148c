// The JSON Schema a provider's encoder puts in a tool definition, checked before the request is
// sent: the APIs take a tool's arguments as one object, and a tool that asks for strict mode must
// meet its rules, or the API rejects the whole request with a less helpful message.
import type { Tool } from "../types.js";
import { findStrictModeProblem } from "./strict-mode-rules.js";
import { toJsonSchema } from "./to-json-schema.js";

export interface ProviderToolSchemaOptions {
	/** The API's name for error messages: "Anthropic", "OpenAI", … */
	api: string;
	/** Whether the request asks the API to hold this tool to strict mode. */
	strict: boolean;
}

/**
 * The tool's parameters as JSON Schema (a Standard Schema converted by its library). Throws when
 * the root is not an object, or when strict mode is asked of a schema that breaks its rules.
 */
export function providerToolSchema(tool: Tool, options: ProviderToolSchemaOptions): Record<string, unknown> {
	const schema = toJsonSchema(tool.parameters, `Tool "${tool.name}"`);
	if (schema.type !== undefined && schema.type !== "object") {
		throw new Error(
			`Tool "${tool.name}": ${options.api} needs an object schema for tool parameters, got type "${String(schema.type)}"; wrap it in Type.Object({...}) (z.object, v.object, type({...}))`,
		);
	}
	if (options.strict) {
		const problem = findStrictModeProblem(schema);
		if (problem) {
			throw new Error(
				`Tool "${tool.name}" asks for strict mode, but its schema breaks the strict-mode rules of ${options.api} (every object closed with additionalProperties: false, every property required): ${problem}. Close the objects (TypeBox { additionalProperties: false }, z.strictObject, v.strictObject) and make optional properties nullable, or leave strict off`,
			);
		}
	}
	return schema;
}
