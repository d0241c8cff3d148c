import type { AnthropicMessagesCompat, Api, Model } from "../../types.js";

// Claude ids carry the version as `<family>-<major>-<minor>` or `<family>-<major>.<minor>`; a date
// suffix (claude-sonnet-4-20250514) is not a minor version.
const CLAUDE_VERSION = /(opus|sonnet|haiku)-(\d+)[-.](\d{1,2})(?!\d)/;

/**
 * True when the model takes structured outputs: JSON outputs (`output_config.format`) and `strict`
 * tools. `compat.supportsStructuredOutputs` decides when set; otherwise Claude 4.5 and later, the
 * models Anthropic lists for the feature.
 * @see https://docs.claude.com/en/docs/build-with-claude/structured-outputs
 */
export function supportsAnthropicStructuredOutputs(model: Model<Api>): boolean {
	const declared = (model.compat as AnthropicMessagesCompat | undefined)?.supportsStructuredOutputs;
	if (declared !== undefined) return declared;
	const match = CLAUDE_VERSION.exec(model.id.toLowerCase());
	if (!match) return false;
	const major = Number(match[2]);
	const minor = Number(match[3]);
	return major > 4 || (major === 4 && minor >= 5);
}

// Keywords JSON outputs do not take: numeric and string bounds, and array bounds beyond
// `minItems` 0 or 1. The answer is still validated against the full schema afterwards.
const UNSUPPORTED_KEYWORDS: ReadonlySet<string> = new Set([
	"minimum",
	"maximum",
	"exclusiveMinimum",
	"exclusiveMaximum",
	"multipleOf",
	"minLength",
	"maxLength",
	"maxItems",
	"uniqueItems",
]);

/** Keywords whose value maps names to schemas. */
const SCHEMA_MAPS: ReadonlySet<string> = new Set(["properties", "$defs", "definitions", "patternProperties"]);

/** Keywords whose value is data, not a schema. */
const DATA_KEYWORDS: ReadonlySet<string> = new Set(["enum", "const", "default", "examples", "required"]);

/**
 * The schema as JSON outputs accept it: every object closed (`additionalProperties: false`, which
 * Anthropic requires) and the keywords it does not support left out (`minItems` above 1 too). A
 * copy; the input is not changed. Keel validates the answer against the caller's full schema, so a
 * bound left out here still fails validation and gets the repair round trip.
 * @see https://docs.claude.com/en/docs/build-with-claude/structured-outputs#json-schema-limitations
 */
export function anthropicOutputSchema(schema: unknown): unknown {
	if (Array.isArray(schema)) return schema.map(anthropicOutputSchema);
	if (typeof schema !== "object" || schema === null) return schema;
	const copy: Record<string, unknown> = {};
	for (const [key, value] of Object.entries(schema)) {
		if (UNSUPPORTED_KEYWORDS.has(key)) continue;
		if (key === "minItems" && typeof value === "number" && value > 1) continue;
		if (SCHEMA_MAPS.has(key) && typeof value === "object" && value !== null) {
			// Property names are the caller's: only the schemas under them are rewritten.
			copy[key] = Object.fromEntries(
				Object.entries(value).map(([name, entry]) => [name, anthropicOutputSchema(entry)]),
			);
		} else {
			copy[key] = DATA_KEYWORDS.has(key) ? value : anthropicOutputSchema(value);
		}
	}
	if (copy.type === "object" || copy.properties !== undefined) copy.additionalProperties = false;
	return copy;
}
