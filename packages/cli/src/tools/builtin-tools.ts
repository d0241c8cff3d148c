// The tools `-T` gives the model. Only tools that touch nothing outside the process: no files, no
// network, no commands. Each call is confirmed by the user first unless --yes is given.
import type { AgentTool } from "@keel/agent-core";
import { Type } from "@keel/ai";
import { UsageError } from "../command.js";
import { evaluateArithmetic } from "./arithmetic.js";

const currentTimeParameters = Type.Object({});

const currentTime: AgentTool<typeof currentTimeParameters> = {
	name: "current_time",
	label: "Current time",
	description: "The current date and time: ISO 8601 in UTC, and the local time with its time zone.",
	parameters: currentTimeParameters,
	async execute() {
		const now = new Date();
		const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
		const local = now.toLocaleString("sv-SE", { timeZone: zone });
		return { content: [{ type: "text", text: `UTC: ${now.toISOString()}\nLocal: ${local} (${zone})` }], details: {} };
	},
};

const calculatorParameters = Type.Object({
	expression: Type.String({
		description:
			"Arithmetic: numbers, + - * / % ^, parentheses, pi, e, sqrt(), abs(), round(), min(), max(), ln(), log10()",
	}),
});

const calculator: AgentTool<typeof calculatorParameters> = {
	name: "calculator",
	label: "Calculator",
	description: "Evaluates an arithmetic expression exactly as written and returns the number.",
	parameters: calculatorParameters,
	async execute(_toolCallId, { expression }) {
		return { content: [{ type: "text", text: String(evaluateArithmetic(expression)) }], details: {} };
	},
};

export const BUILTIN_TOOLS: AgentTool[] = [currentTime as AgentTool, calculator as AgentTool];

/** The tools named with -T; a usage error names the ones that exist. */
export function selectTools(commandName: string, names: string[]): AgentTool[] {
	return [...new Set(names)].map((name) => {
		const tool = BUILTIN_TOOLS.find((candidate) => candidate.name === name);
		if (!tool) {
			const known = BUILTIN_TOOLS.map((candidate) => candidate.name).join(", ");
			throw new UsageError(
				`unknown tool "${name}": the built-in tools are ${known} (keel tools describes them)`,
				commandName,
			);
		}
		return tool;
	});
}
