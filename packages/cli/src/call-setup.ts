// The flags `keel prompt` and `keel chat` share beyond the model: system prompt, model options,
// tools, templates and logging, turned into the setup of a Conversation. A template gives defaults
// that flags override; a resumed conversation's stored settings come last.
import type { TranscriptStore } from "@keel/agent-core/session";
import { resolveCallCredentials } from "./api-key.js";
import { parsePositiveInteger, UsageError } from "./command.js";
import { readKeelConfig } from "./config/keel-config.js";
import { loadTemplate, saveTemplate, type Template } from "./config/templates.js";
import type { ConversationSetup } from "./conversation/conversation.js";
import { MODEL_OPTIONS, MODEL_OPTIONS_HELP, selectModel, selectReasoning } from "./model-selection.js";
import { ensurePrivateDirectory } from "./private-files.js";
import { optionPairs, parseModelOptions } from "./prompt-input/model-options.js";
import type { ChatSettings } from "./sessions/chat-transcript.js";
import { keelHome, sessionsDirectory } from "./sessions/keel-home.js";
import { openSessionStore } from "./sessions/session-store.js";
import type { Terminal } from "./terminal.js";
import { selectTools } from "./tools/builtin-tools.js";
import {
	connectMcpTools,
	MCP_OPTIONS,
	MCP_OPTIONS_HELP,
	type McpFlagValues,
	type McpTools,
} from "./tools/mcp-servers.js";

export const CALL_OPTIONS = {
	...MODEL_OPTIONS,
	system: { type: "string", short: "s" },
	"max-tokens": { type: "string" },
	option: { type: "string", short: "o", multiple: true },
	tool: { type: "string", short: "T", multiple: true },
	...MCP_OPTIONS,
	yes: { type: "boolean", short: "y" },
	template: { type: "string", short: "t" },
	save: { type: "string" },
	"no-log": { type: "boolean" },
	log: { type: "boolean" },
} as const;

export const CALL_OPTIONS_HELP = `${MODEL_OPTIONS_HELP}
  -s, --system text        the system prompt
  -o, --option name value  a model option: temperature (0–2), max_tokens, reasoning, or a
                           sampling key the model takes (top_p, top_k, seed, …); repeatable
      --max-tokens n       the most tokens an answer may use (-o max_tokens n)
  -T, --tool name          let the model call a built-in tool (current_time, calculator; keel
                           tools lists them); each call is confirmed first
${MCP_OPTIONS_HELP}
  -y, --yes                run tool calls without asking
  -t, --template name      use a saved template (system prompt, model, options, tools)
      --no-log             do not log this conversation (keel logs off turns logging off)
      --log                log it even when logging is off`;

/** The values parseArgs returns for CALL_OPTIONS. */
export interface CallValues extends McpFlagValues {
	model?: string;
	"base-url"?: string;
	api?: string;
	key?: string;
	reasoning?: string;
	system?: string;
	"max-tokens"?: string;
	option?: string[];
	tool?: string[];
	yes?: boolean;
	template?: string;
	save?: string;
	"no-log"?: boolean;
	log?: boolean;
}

export interface BuiltSetup {
	setup: ConversationSetup;
	/** Said on stderr before the call (a reasoning level that had to change). */
	notes: string[];
	/** The MCP servers of --mcp/--mcp-url: close() stops them once the command is done. */
	mcp: McpTools;
}

export async function buildSetup(
	commandName: string,
	values: CallValues,
	terminal: Terminal,
	options: { json: boolean; saved?: ChatSettings },
): Promise<BuiltSetup> {
	const template: Template =
		values.template !== undefined ? loadTemplate(commandName, terminal.env, values.template) : {};
	// A stored conversation's server and model stay unless -m picks another.
	const saved = values.model === undefined && template.model === undefined ? options.saved : undefined;
	const modelFlags = {
		model: values.model ?? template.model ?? saved?.model,
		baseUrl: values["base-url"] ?? saved?.baseUrl,
		api: values.api ?? saved?.api,
	};
	const model = selectModel(commandName, modelFlags, terminal.env);
	const parsedOptions = parseModelOptions(commandName, model, {
		...template.options,
		...optionPairs(commandName, values.option),
	});
	const maxTokens = parsePositiveInteger(commandName, "--max-tokens", values["max-tokens"]);
	const callOptions = { ...options.saved?.options, ...parsedOptions.callOptions };
	if (maxTokens !== undefined) callOptions.maxTokens = maxTokens;
	const reasoning = selectReasoning(
		commandName,
		model,
		values.reasoning ?? parsedOptions.reasoning ?? template.reasoning ?? options.saved?.reasoning,
	);
	const toolNames = [...(template.tools ?? []), ...(values.tool ?? [])];
	const tools = selectTools(commandName, toolNames.length > 0 ? toolNames : (options.saved?.tools ?? []));
	const credentials = await resolveCallCredentials(model, values.key, terminal.env);
	// Connected last, so that nothing after it can fail and leave a started server behind.
	const mcp = await connectMcpTools(commandName, values, terminal);
	return {
		setup: {
			model,
			modelFlags,
			reasoning: reasoning.level,
			systemPrompt: values.system ?? template.system ?? options.saved?.systemPrompt,
			callOptions,
			credentials,
			tools: [...tools, ...mcp.tools],
			confirmTools: values.yes !== true,
			json: options.json,
		},
		notes: reasoning.note ? [reasoning.note] : [],
		mcp,
	};
}

/** `--save name`: the flags given, checked, written as a template. */
export function saveTemplateFromFlags(commandName: string, values: CallValues, terminal: Terminal): number {
	const name = values.save as string;
	const options = optionPairs(commandName, values.option);
	if (values["max-tokens"] !== undefined) {
		options.max_tokens = String(parsePositiveInteger(commandName, "--max-tokens", values["max-tokens"]));
	}
	const template: Template = {
		system: values.system,
		model: values.model,
		reasoning: values.reasoning,
		options: Object.keys(options).length > 0 ? options : undefined,
		tools: values.tool && values.tool.length > 0 ? [...new Set(values.tool)] : undefined,
	};
	selectTools(commandName, template.tools ?? []);
	if (template.model !== undefined) {
		// Checked now, so a template never fails later for what could be known today.
		const model = selectModel(
			commandName,
			{ model: template.model, baseUrl: values["base-url"], api: values.api },
			terminal.env,
		);
		parseModelOptions(commandName, model, options);
		selectReasoning(commandName, model, template.reasoning);
	}
	if (Object.values(template).every((value) => value === undefined)) {
		throw new UsageError(`--save ${name} needs something to save: -s, -m, -o, --reasoning or -T`, commandName);
	}
	const path = saveTemplate(commandName, terminal.env, name, template);
	terminal.stderr.write(`Saved template "${name}" in ${path}. Use it with: keel -t ${name} "your prompt"\n`);
	return 0;
}

/** Where this conversation is logged, or undefined when it is not (keel logs off, --no-log). */
export function logStore(values: CallValues, env: Terminal["env"]): TranscriptStore | undefined {
	if (values.log === true && values["no-log"] === true) {
		throw new UsageError("--log and --no-log contradict each other: give one");
	}
	const logging = values.log === true ? true : values["no-log"] === true ? false : readKeelConfig(env).logging;
	return logging ? openPrivateSessionStore(env) : undefined;
}

/** The sessions store, its folder created private (0700) first. */
export function openPrivateSessionStore(env: Terminal["env"]): TranscriptStore {
	ensurePrivateDirectory(keelHome(env));
	ensurePrivateDirectory(sessionsDirectory(env));
	return openSessionStore(env);
}
