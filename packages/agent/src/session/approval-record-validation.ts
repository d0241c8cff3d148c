// Validates an "approval" record read back from a transcript: the action, the pause it belongs to,
// and for "requested" the whole paused run (its assistant message and every call), so that a damaged
// record is reported with the field that is wrong instead of failing later when the run resumes.
import { PAUSED_TOOL_RUN_VERSION } from "../approval/approval-types.js";
import {
	describe,
	FieldError,
	optionalString,
	requireObject,
	requireString,
	validateAgentMessage,
} from "./message-validation.js";

const ACTIONS = ["requested", "granted", "denied", "completed"];
const CALL_STATUSES = ["done", "recorded", "pending", "not-started"];

export function validateApprovalRecord(record: Record<string, unknown>): void {
	if (!ACTIONS.includes(record.action as string)) {
		throw new FieldError(
			"action",
			`must be one of ${ACTIONS.map((action) => `"${action}"`).join(", ")}, got ${JSON.stringify(record.action)}`,
		);
	}
	requireString(record, "pauseId", "record");
	optionalString(record, "toolCallId", "record");
	optionalString(record, "reason", "record");
	if (record.action === "granted" || record.action === "denied") requireString(record, "toolCallId", "record");
	if (record.action === "requested") validatePausedRun(record.pausedRun, record.pauseId as string);
}

function validatePausedRun(value: unknown, pauseId: string): void {
	const paused = requireObject(value, "pausedRun");
	if (paused.version !== PAUSED_TOOL_RUN_VERSION) {
		throw new FieldError("pausedRun.version", `must be ${PAUSED_TOOL_RUN_VERSION}, got ${describe(paused.version)}`);
	}
	if (requireString(paused, "pauseId", "pausedRun") !== pauseId) {
		throw new FieldError("pausedRun.pauseId", "must equal the record's pauseId");
	}
	const assistant = validateAgentMessage(paused.assistantMessage, "pausedRun.assistantMessage");
	if ((assistant as { role?: unknown }).role !== "assistant") {
		throw new FieldError(
			"pausedRun.assistantMessage.role",
			`must be "assistant", got ${describe((assistant as { role?: unknown }).role)}`,
		);
	}
	if (!Array.isArray(paused.calls))
		throw new FieldError("pausedRun.calls", `must be an array, got ${describe(paused.calls)}`);
	paused.calls.forEach((entry, index) => {
		const path = `pausedRun.calls[${index}]`;
		const call = requireObject(entry, path);
		requireString(call, "toolCallId", path);
		requireString(call, "toolName", path);
		if (!CALL_STATUSES.includes(call.status as string)) {
			throw new FieldError(
				`${path}.status`,
				`must be one of ${CALL_STATUSES.join(", ")}, got ${describe(call.status)}`,
			);
		}
		if (call.status === "done") {
			const result = requireObject(call.result, `${path}.result`);
			if (!Array.isArray(result.content)) {
				throw new FieldError(`${path}.result.content`, `must be an array, got ${describe(result.content)}`);
			}
			if (typeof call.isError !== "boolean") {
				throw new FieldError(`${path}.isError`, `must be a boolean, got ${describe(call.isError)}`);
			}
		}
		if (call.status === "pending" && call.decision !== undefined) {
			const decision = requireObject(call.decision, `${path}.decision`);
			if (typeof decision.approved !== "boolean") {
				throw new FieldError(`${path}.decision.approved`, `must be a boolean, got ${describe(decision.approved)}`);
			}
		}
	});
}
