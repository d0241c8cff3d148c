// The checks agentAsTool runs on its options when the tool is made, so a mistake is an error at
// once, naming the option, and never a surprise in the middle of a parent's run.
import type { TSchema } from "@keel/ai";
import { Agent, type AgentOptions } from "./agent.js";
import { type AgentAsToolOptions, DEFAULT_AGENT_TOOL_MAX_DEPTH } from "./agent-as-tool-types.js";

export interface CheckedOptions {
	options: AgentAsToolOptions<TSchema>;
	maxDepth: number;
}

/** Checks every option and settles the defaults the calls need; throws naming the option. */
export function checkAgentToolOptions<TParameters extends TSchema>(
	options: AgentAsToolOptions<TParameters>,
): CheckedOptions {
	const where = "agentAsTool()";
	if (typeof options !== "object" || options === null) {
		throw new TypeError(`${where} takes an options object, got ${options === null ? "null" : typeof options}`);
	}
	if (typeof options.name !== "string" || options.name.trim() === "") {
		throw new TypeError(`${where}: name must be a non-empty string, got ${JSON.stringify(options.name)}`);
	}
	if (typeof options.description !== "string" || options.description.trim() === "") {
		throw new TypeError(
			`${where} "${options.name}": description must be a non-empty string (the parent's model reads it)`,
		);
	}
	const agent = options.agent as unknown;
	if (typeof agent !== "function" && (typeof agent !== "object" || agent === null)) {
		throw new TypeError(
			`${where} "${options.name}": agent must be Agent options or a function returning a new Agent, got ${agent === null ? "null" : typeof agent}`,
		);
	}
	if (agent instanceof Agent) {
		throw new TypeError(
			`${where} "${options.name}": agent is an Agent instance; give a function that makes a new one per call (agent: () => new Agent(...)), since calls may run at once`,
		);
	}
	if (typeof agent === "object" && (agent as AgentOptions).store !== undefined) {
		throw new TypeError(
			`${where} "${options.name}": agent options must not carry a store (every call needs its own); give childStore instead`,
		);
	}
	if (options.parameters !== undefined && (typeof options.parameters !== "object" || options.parameters === null)) {
		throw new TypeError(`${where} "${options.name}": parameters must be a TypeBox schema`);
	}
	for (const field of ["prompt", "result", "childStore"] as const) {
		if (options[field] !== undefined && typeof options[field] !== "function") {
			throw new TypeError(`${where} "${options.name}": ${field} must be a function, got ${typeof options[field]}`);
		}
	}
	if (
		options.progress !== undefined &&
		typeof options.progress !== "boolean" &&
		typeof options.progress !== "function"
	) {
		throw new TypeError(`${where} "${options.name}": progress must be a boolean or a function of the event`);
	}
	for (const field of ["maxTurns", "maxDepth"] as const) {
		const value = options[field];
		if (value !== undefined && (!Number.isInteger(value) || value < 1)) {
			throw new RangeError(`${where} "${options.name}": ${field} must be a positive integer, got ${String(value)}`);
		}
	}
	return {
		options: options as unknown as AgentAsToolOptions<TSchema>,
		maxDepth: options.maxDepth ?? DEFAULT_AGENT_TOOL_MAX_DEPTH,
	};
}
