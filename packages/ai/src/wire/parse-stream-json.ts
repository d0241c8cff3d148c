import { NonRetryableError } from "../call/provider-stream.js";

/**
 * The JSON of one server-sent event's data. Data that is not JSON fails the call without a retry
 * (the same request would get the same stream), with the source, the event name when there is one,
 * the parser's reason and the start of the data, so the broken server or proxy can be found.
 */
export function parseStreamEventJson(data: string, source: string, eventName?: string): unknown {
	try {
		return JSON.parse(data);
	} catch (error) {
		const reason = error instanceof Error ? error.message : String(error);
		const named = eventName ? ` (event "${eventName}")` : "";
		throw new NonRetryableError(
			`${source} sent a stream event that is not JSON${named}: ${reason} (data: ${data.slice(0, 200)})`,
		);
	}
}
