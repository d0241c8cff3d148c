// Feeds a model call's trace from the events its caller receives.
import type { AssistantMessageEvent } from "../types.js";
import type { ModelCallTrace } from "./hooks.js";

/**
 * Wraps `push` so the trace hears of the first text, thinking or tool-call event (time to first
 * token) and ends with the terminal event, as the caller receives it. Used only when tracing is on:
 * with it off the harness pushes events directly and pays nothing per delta. `trace` must be a
 * guarded trace (`startModelCallTrace`), whose hooks never throw.
 */
export function pushTracingEvents(
	push: (event: AssistantMessageEvent) => void,
	trace: ModelCallTrace,
): (event: AssistantMessageEvent) => void {
	let seen = false;
	return (event) => {
		// The caller gets the event first: the trace only hears of what the caller already has.
		push(event);
		if (event.type === "done") trace.end(event.message);
		else if (event.type === "error") trace.end(event.error);
		else if (!seen && event.type !== "start") {
			seen = true;
			trace.firstToken();
		}
	};
}
