import type Anthropic from "@anthropic-ai/sdk";
import { providerToolSchema } from "../../schema/provider-tool-schema.js";
import type { Tool } from "../../types.js";
import type { AnthropicToolChoice } from "./options.js";

type ToolParam = Anthropic.Messages.Tool;

// Root schema keywords that keep their meaning inside `input_schema` (the root is always an object).
const KEPT_ROOT_KEYWORDS = ["additionalProperties", "$defs", "definitions"] as const;

/** Tools in Anthropic's schema: `{name, description, input_schema: {type: "object", …}}`. */
export function encodeAnthropicTools(tools: readonly Tool[], eagerInputStreaming: boolean): ToolParam[] {
	return tools.map((tool) => {
		const schema = providerToolSchema(tool, { api: "Anthropic", strict: false });
		const inputSchema: ToolParam["input_schema"] = {
			type: "object",
			properties: (schema.properties as Record<string, unknown> | undefined) ?? {},
			required: (schema.required as string[] | undefined) ?? [],
		};
		for (const keyword of KEPT_ROOT_KEYWORDS) {
			if (schema[keyword] !== undefined) inputSchema[keyword] = schema[keyword];
		}
		const encoded: ToolParam = { name: tool.name, description: tool.description, input_schema: inputSchema };
		if (eagerInputStreaming) encoded.eager_input_streaming = true;
		return encoded;
	});
}

/** A string choice is shorthand for `{type}`; an object goes out unchanged. */
export function encodeAnthropicToolChoice(choice: AnthropicToolChoice): Anthropic.Messages.ToolChoice {
	return typeof choice === "string" ? { type: choice } : choice;
}
