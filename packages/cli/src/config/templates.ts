// Templates: a saved system prompt, model and options, one JSON file per template in
// $KEEL_HOME/templates (files 0600). `keel -t name` uses one; `--save name` writes one.
import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { UsageError } from "../command.js";
import { readFileIfPresent, writePrivateFile } from "../private-files.js";
import { keelHome } from "../sessions/keel-home.js";

export interface Template {
	system?: string;
	model?: string;
	reasoning?: string;
	/** -o options, as given: temperature, max_tokens, … */
	options?: Record<string, string>;
	tools?: string[];
}

type Environment = Record<string, string | undefined>;

const TEMPLATE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

export function templatesDirectory(env: Environment): string {
	return join(keelHome(env), "templates");
}

function templatePath(commandName: string, env: Environment, name: string): string {
	if (!TEMPLATE_NAME.test(name)) {
		throw new UsageError(
			`"${name}" is not a template name: use letters, digits, "-" and "_" (at most 64 characters)`,
			commandName,
		);
	}
	return join(templatesDirectory(env), `${name}.json`);
}

export function loadTemplate(commandName: string, env: Environment, name: string): Template {
	const path = templatePath(commandName, env, name);
	const text = readFileIfPresent(path);
	if (text === undefined) {
		const known = listTemplates(env);
		const listing = known.length > 0 ? `saved templates: ${known.join(", ")}` : "no template is saved yet";
		throw new UsageError(`no template "${name}" (${listing}); save one with --save ${name}`, commandName);
	}
	try {
		return JSON.parse(text) as Template;
	} catch (error) {
		throw new UsageError(
			`template "${name}" in ${path} is not valid JSON (${(error as Error).message}): fix or remove it`,
			commandName,
		);
	}
}

export function saveTemplate(commandName: string, env: Environment, name: string, template: Template): string {
	const path = templatePath(commandName, env, name);
	writePrivateFile(path, `${JSON.stringify(template, null, 2)}\n`);
	return path;
}

export function removeTemplate(commandName: string, env: Environment, name: string): void {
	loadTemplate(commandName, env, name);
	rmSync(templatePath(commandName, env, name));
}

export function listTemplates(env: Environment): string[] {
	try {
		return readdirSync(templatesDirectory(env))
			.filter((file) => file.endsWith(".json"))
			.map((file) => file.slice(0, -".json".length))
			.sort();
	} catch {
		return [];
	}
}
