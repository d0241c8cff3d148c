// The CLI's settings in $KEEL_HOME/config.json: the default model, model aliases, and whether
// prompts are logged. Read on each command; written whole (0600) when a command changes them.
import { join } from "node:path";
import { readFileIfPresent, writePrivateFile } from "../private-files.js";
import { keelHome } from "../sessions/keel-home.js";

export interface KeelConfig {
	/** provider/id (or an alias) used when neither -m, a template nor KEEL_MODEL names one. */
	defaultModel?: string;
	/** Short names for models: `fast` → `anthropic/claude-haiku-4-5`. */
	aliases: Record<string, string>;
	/** false after `keel logs off`. */
	logging: boolean;
}

type Environment = Record<string, string | undefined>;

export function configPath(env: Environment): string {
	return join(keelHome(env), "config.json");
}

export function readKeelConfig(env: Environment): KeelConfig {
	const path = configPath(env);
	const text = readFileIfPresent(path);
	if (text === undefined) return { aliases: {}, logging: true };
	let parsed: Partial<KeelConfig>;
	try {
		parsed = JSON.parse(text) as Partial<KeelConfig>;
	} catch (error) {
		throw new Error(`${path} is not valid JSON (${(error as Error).message}): fix or delete it`);
	}
	return {
		defaultModel: typeof parsed.defaultModel === "string" ? parsed.defaultModel : undefined,
		aliases: parsed.aliases && typeof parsed.aliases === "object" ? { ...parsed.aliases } : {},
		logging: parsed.logging !== false,
	};
}

export function writeKeelConfig(env: Environment, config: KeelConfig): void {
	writePrivateFile(configPath(env), `${JSON.stringify(config, null, 2)}\n`);
}

/** Reads, changes and writes the settings. */
export function updateKeelConfig(env: Environment, change: (config: KeelConfig) => void): KeelConfig {
	const config = readKeelConfig(env);
	change(config);
	writeKeelConfig(env, config);
	return config;
}
