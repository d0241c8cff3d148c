// Asking before a tool call runs: "Run calculator {"expression":"2+2"}? [y/N]". Only a person at a
// terminal can answer; with no terminal to ask, the call is refused and stderr says to pass --yes.
import type { ToolApprovalRequest } from "@keel/agent-core";
import { colorEnabled, createStyles, type Terminal } from "./terminal.js";

export function confirmationQuestion(request: ToolApprovalRequest): string {
	return `Run ${request.toolName} ${JSON.stringify(request.args)}? [y/N] `;
}

export const isYes = (answer: string | undefined) => /^\s*y(es)?\s*$/i.test(answer ?? "");

/** What is said when a call cannot be confirmed (no terminal): it is refused. */
export function refuseWithoutTerminal(terminal: Terminal, request: ToolApprovalRequest): false {
	const styles = createStyles(colorEnabled(terminal.stderr, terminal.env));
	terminal.stderr.write(
		styles.yellow(
			`Refused ${request.toolName}: tool calls are confirmed at a terminal and there is none; pass --yes to allow them\n`,
		),
	);
	return false;
}
