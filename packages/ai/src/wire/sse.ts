// The one server-sent-events parser of Keel: every provider that streams SSE (Anthropic Messages,
// OpenAI Chat Completions and Responses, Azure, Gemini, Vertex AI, Mistral, Codex) and the proxy
// client parse bodies with it, through the pump (pump.ts, sseFramer in framers.ts).
//
// Why not the SDKs' own stream iterators: on 20k small events the openai SDK's `Stream` measured
// about 3.5–5× the cost of this reader and the Anthropic SDK's about 1.6× (their byte-level line
// decoders copy buffers per line, and they take one async step per event); see
// scripts/bench/{openai-completions,openai-responses,anthropic}.bench.ts. Against the
// eventsource-parser package, see docs/providers-shared.md. It needs nothing but strings, so it
// runs in browsers too.

/** One event: its `event:` name when the server sent one, and its `data:` lines joined by "\n". */
export interface ServerSentEvent {
	event: string | undefined;
	data: string;
	/** The last `id:` the stream set, when it set one (servers that let a client resume send them). */
	id?: string;
}

const NEWLINE = 10;
const COLON = 58;
const SPACE = 32;

/**
 * An incremental SSE parser with linear total work. Decoded text is pushed as it arrives; complete
 * events go to `onEvent`. A line split across pushes is kept as pending pieces and only new text is
 * searched for line ends, so a 256 KB `data:` line arriving in 64-byte chunks still costs O(size).
 * Lines end with "\n", "\r\n" or a lone "\r" (also when "\r\n" is split across pushes). Comment
 * lines (": keep-alive", OpenRouter's ": OPENROUTER PROCESSING") and the `retry` field are skipped;
 * the `id` field is kept as the SSE format says (it stays set for later events until changed).
 * Comments are no progress for the idle watchdog: only a chunk that moves the message on restarts
 * it (see pump.ts).
 */
export class ServerSentEventParser {
	private pendingLine: string[] = [];
	private dataLines: string[] = [];
	private eventName: string | undefined;
	private lastEventId: string | undefined;
	private lastWasCarriageReturn = false;

	constructor(private readonly onEvent: (event: ServerSentEvent) => void) {}

	push(text: string): void {
		let start = 0;
		// A "\r\n" split across pushes: the "\r" ended the line already, skip the "\n".
		if (this.lastWasCarriageReturn) {
			this.lastWasCarriageReturn = false;
			if (text.charCodeAt(0) === NEWLINE) start = 1;
		}
		if (text.indexOf("\r", start) === -1) this.pushLinesEndingInNewline(text, start);
		else this.pushLinesWithCarriageReturns(text, start);
	}

	/** Ends the input: an event the server closed without its blank line is still delivered (lenient). */
	end(): void {
		if (this.pendingLine.length > 0) {
			const line = this.pendingLine.join("");
			this.pendingLine = [];
			this.processLine(line);
		}
		this.dispatch();
	}

	/** The common case: only "\n" line ends in this text. */
	private pushLinesEndingInNewline(text: string, from: number): void {
		let start = from;
		for (;;) {
			const end = text.indexOf("\n", start);
			if (end === -1) break;
			this.completeLine(text.slice(start, end));
			start = end + 1;
		}
		if (start < text.length) this.pendingLine.push(text.slice(start));
	}

	/** "\r\n" and lone "\r" line ends (allowed by the SSE format, rarely used). */
	private pushLinesWithCarriageReturns(text: string, from: number): void {
		let start = from;
		const length = text.length;
		// Each search result is reused until passed, so the work stays linear in the text length.
		let newline = -2;
		let carriageReturn = -2;
		while (start < length) {
			if (newline !== -1 && newline < start) newline = text.indexOf("\n", start);
			if (carriageReturn !== -1 && carriageReturn < start) carriageReturn = text.indexOf("\r", start);
			const end = carriageReturn === -1 ? newline : newline === -1 ? carriageReturn : Math.min(newline, carriageReturn);
			if (end === -1) break;
			this.completeLine(text.slice(start, end));
			if (end === carriageReturn) {
				if (end + 1 === length) {
					this.lastWasCarriageReturn = true;
					return;
				}
				start = text.charCodeAt(end + 1) === NEWLINE ? end + 2 : end + 1;
			} else {
				start = end + 1;
			}
		}
		if (start < length) this.pendingLine.push(text.slice(start));
	}

	private completeLine(piece: string): void {
		if (this.pendingLine.length === 0) {
			this.processLine(piece);
			return;
		}
		this.pendingLine.push(piece);
		const line = this.pendingLine.join("");
		this.pendingLine = [];
		this.processLine(line);
	}

	private processLine(line: string): void {
		if (line === "") {
			this.dispatch();
			return;
		}
		if (line.charCodeAt(0) === COLON) return;
		const colon = line.indexOf(":");
		const field = colon === -1 ? line : line.slice(0, colon);
		let value = colon === -1 ? "" : line.slice(colon + 1);
		if (value.charCodeAt(0) === SPACE) value = value.slice(1);
		if (field === "data") this.dataLines.push(value);
		else if (field === "event") this.eventName = value;
		// An id with NUL is ignored (https://html.spec.whatwg.org/multipage/server-sent-events.html).
		else if (field === "id" && !value.includes("\0")) this.lastEventId = value;
	}

	private dispatch(): void {
		if (this.dataLines.length === 0) {
			// An event without data (a bare `event: ping`) is not dispatched, as the SSE format says.
			this.eventName = undefined;
			return;
		}
		const data = this.dataLines.length === 1 ? this.dataLines[0] : this.dataLines.join("\n");
		const event: ServerSentEvent =
			this.lastEventId === undefined
				? { event: this.eventName, data }
				: { event: this.eventName, data, id: this.lastEventId };
		this.dataLines = [];
		this.eventName = undefined;
		this.onEvent(event);
	}
}
