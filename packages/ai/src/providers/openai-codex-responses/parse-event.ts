import type { ResponseStreamEvent } from "openai/resources/responses/responses";
import type { ServerSentEvent } from "../../wire/sse.js";
import { parseResponsesEvent } from "../openai-responses/transport.js";

/**
 * One Codex event (an SSE event or a WebSocket message) as a Responses stream event. Codex ends a
 * response with `response.done` where the Responses API says `response.completed`; it carries the
 * same response object (status, usage), so it is read as that. The rest is the Responses parsing:
 * data that is not an object is skipped, bad JSON and `{"error":…}` are clear errors.
 */
export function parseCodexEvent(message: ServerSentEvent, label: string): ResponseStreamEvent | undefined {
	const event = parseResponsesEvent(message, label);
	if ((event?.type as string) === "response.done")
		return { ...event, type: "response.completed" } as ResponseStreamEvent;
	return event;
}
