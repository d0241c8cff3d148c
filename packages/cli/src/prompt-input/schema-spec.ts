// `--schema`: a JSON Schema file, inline JSON, or the short form `name str, age int` (one field a
// comma; types str, int, float, bool, default str; `name str: what it is` adds a description).
// The answer comes back through @keel/ai's completeObject, validated against the schema.
import { existsSync, readFileSync } from "node:fs";
import type { TSchema } from "@keel/ai";
import { UsageError } from "../command.js";

const SHORT_TYPES: Record<string, string> = {
	str: "string",
	string: "string",
	int: "integer",
	integer: "integer",
	float: "number",
	number: "number",
	bool: "boolean",
	boolean: "boolean",
};

const SCHEMA_HELP = 'give a JSON Schema file, inline JSON, or fields such as "name str, age int"';

export function parseSchemaSpec(commandName: string, spec: string): TSchema {
	const trimmed = spec.trim();
	let schema: unknown;
	if (trimmed.startsWith("{")) {
		schema = parseJson(commandName, trimmed, "the --schema JSON");
	} else if (existsSync(trimmed)) {
		schema = parseJson(commandName, readFileSync(trimmed, "utf8"), trimmed);
	} else {
		schema = parseShortSchema(commandName, trimmed);
	}
	if (typeof schema !== "object" || schema === null || (schema as { type?: unknown }).type !== "object") {
		throw new UsageError(
			`--schema: the schema's root must be an object ("type": "object"); ${SCHEMA_HELP}`,
			commandName,
		);
	}
	return schema as TSchema;
}

function parseJson(commandName: string, text: string, source: string): unknown {
	try {
		return JSON.parse(text);
	} catch (error) {
		throw new UsageError(
			`--schema: ${source} is not valid JSON (${(error as Error).message}); ${SCHEMA_HELP}`,
			commandName,
		);
	}
}

function parseShortSchema(commandName: string, spec: string): TSchema {
	const properties: Record<string, Record<string, string>> = {};
	const fields = spec
		.split(/[,\n]/)
		.map((field) => field.trim())
		.filter((field) => field !== "");
	if (fields.length === 0) throw new UsageError(`--schema is empty; ${SCHEMA_HELP}`, commandName);
	for (const field of fields) {
		const colon = field.indexOf(":");
		const declaration = (colon === -1 ? field : field.slice(0, colon)).trim();
		const description = colon === -1 ? undefined : field.slice(colon + 1).trim();
		const match = /^([A-Za-z_][A-Za-z0-9_]*)(?:\s+([A-Za-z]+))?$/.exec(declaration);
		const type = match ? SHORT_TYPES[(match[2] ?? "str").toLowerCase()] : undefined;
		if (!match || type === undefined) {
			throw new UsageError(
				`--schema: cannot read the field "${field}": write "name type" with type str, int, float or bool (no such file either)`,
				commandName,
			);
		}
		properties[match[1]] = description ? { type, description } : { type };
	}
	return {
		type: "object",
		properties,
		required: Object.keys(properties),
		additionalProperties: false,
	} as unknown as TSchema;
}
