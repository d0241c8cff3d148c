// How a decoder shows the event it could not read in its "Malformed … stream event" error: the
// event's JSON, cut to 300 characters so one huge or hostile event does not become a huge message.

const SHOWN_CHARACTERS = 300;

/** The event as JSON, cut to 300 characters (… marks the cut); String(event) when it has no JSON. */
export function describeStreamEvent(event: unknown): string {
	let text: string;
	try {
		text = JSON.stringify(event) ?? String(event);
	} catch {
		// A cycle or a BigInt in an event handed in already parsed: the error still names the problem.
		text = String(event);
	}
	return text.length > SHOWN_CHARACTERS ? `${text.slice(0, SHOWN_CHARACTERS)}…` : text;
}
