// An Agent's request settings (system prompt, model, thinking level, tool names) as a session keeps
// them in its state, so that an Agent resumed in another process sends the request the first one
// would have sent. Tool implementations cannot be stored: the names pick them from the tools the
// resuming program gives again.
import type { Model } from "@keel/ai";
import type { AgentSettings } from "../agent-store.js";
import type { AgentTool, ThinkingLevel } from "../types.js";
import type { StoredAgentSettings } from "./session-types.js";

const THINKING_LEVELS: readonly string[] = ["off", "minimal", "low", "medium", "high", "xhigh", "max"];

/** The stored form: the model without `headers` (they may carry credentials), tools by name. */
export function toStoredAgentSettings(settings: AgentSettings): StoredAgentSettings {
	const { headers: _headers, ...model } = settings.model;
	return {
		systemPrompt: settings.systemPrompt,
		model,
		thinkingLevel: settings.thinkingLevel,
		toolNames: settings.tools.map((tool) => tool.name),
	};
}

/** True when both describe the same request settings. */
export function sameStoredAgentSettings(a: StoredAgentSettings | undefined, b: StoredAgentSettings): boolean {
	return a !== undefined && JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The settings to resume with. The tool names pick from `tools` when given (a name without an
 * implementation there is a clear error); without `tools`, no tools are restored. A malformed stored
 * value throws naming the field.
 */
export function restoreAgentSettings(
	stored: unknown,
	tools: readonly AgentTool[] | undefined,
	sessionId: string,
): Partial<AgentSettings> {
	if (stored === undefined) return {};
	const fail = (field: string, expected: string): never => {
		throw new TypeError(`Session ${sessionId} stores invalid agent settings: ${field} must be ${expected}`);
	};
	if (!stored || typeof stored !== "object") fail("state.agent", "an object");
	const value = stored as Record<string, unknown>;
	if (typeof value.systemPrompt !== "string") fail("state.agent.systemPrompt", "a string");
	const model = value.model as Record<string, unknown> | null;
	if (!model || typeof model !== "object") fail("state.agent.model", "an object");
	for (const key of ["provider", "id", "api"]) {
		if (typeof model?.[key] !== "string") fail(`state.agent.model.${key}`, "a string");
	}
	if (typeof value.thinkingLevel !== "string" || !THINKING_LEVELS.includes(value.thinkingLevel)) {
		fail("state.agent.thinkingLevel", `one of ${THINKING_LEVELS.join(", ")}`);
	}
	const names = value.toolNames;
	if (!Array.isArray(names) || names.some((name) => typeof name !== "string")) {
		fail("state.agent.toolNames", "an array of strings");
	}
	const settings: Partial<AgentSettings> = {
		systemPrompt: value.systemPrompt as string,
		model: model as unknown as Model,
		thinkingLevel: value.thinkingLevel as ThinkingLevel,
	};
	if (tools) {
		const missing = (names as string[]).filter((name) => !tools.some((tool) => tool.name === name));
		if (missing.length > 0) {
			throw new Error(
				`Session ${sessionId} was run with tools ${missing.map((name) => `"${name}"`).join(", ")} that are not among the tools given to resume it: pass their implementations too`,
			);
		}
		settings.tools = (names as string[]).map((name) => tools.find((tool) => tool.name === name) as AgentTool);
	}
	return settings;
}
