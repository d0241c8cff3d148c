// One sentence per way a call can fail, saying which server and tool, what happened, and what to do.

import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";

export interface CallFailure {
	server: string;
	tool: string;
	timeoutMs: number;
	/** Set once the connection closed: why, with the tail of a stdio server's stderr. */
	closedReason?: string;
}

export function describeCallError(error: unknown, failure: CallFailure): string {
	const subject = `MCP server "${failure.server}"`;
	if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
		return `${subject} did not finish tool "${failure.tool}" within ${failure.timeoutMs} ms, so the call was cancelled. Raise callTimeoutMs if the tool needs longer.`;
	}
	if (failure.closedReason !== undefined || (error instanceof McpError && error.code === ErrorCode.ConnectionClosed)) {
		return `${subject} closed the connection during a call to tool "${failure.tool}" (${failure.closedReason ?? "the server crashed or exited"}).`;
	}
	return `${subject} failed to run tool "${failure.tool}": ${errorText(error)}`;
}

export function errorText(error: unknown): string {
	if (error instanceof Error) return error.message;
	return String(error);
}
