// PLACEHOLDER: to be replaced by the incremental parser (linear total work). The interface below
// is what decoders use; keep it stable.

/** Result of finishing a streamed JSON document. */
export interface StreamingJsonResult {
	value: unknown;
	/** True when the whole text was one complete, valid JSON value. */
	complete: boolean;
	/** Why the text was not valid JSON, when it was not. */
	error?: string;
}

/**
 * Incremental parser for JSON that arrives in pieces (tool-call arguments). `push` does work
 * proportional to the delta; `value` is the best-effort value so far (objects and arrays are
 * updated in place); `finish` settles the final value.
 */
export class StreamingJsonParser {
	private text = "";
	private current: unknown = undefined;

	push(delta: string): void {
		this.text += delta;
	}

	get value(): unknown {
		return this.current;
	}

	/** The raw text received so far. */
	get source(): string {
		return this.text;
	}

	finish(): StreamingJsonResult {
		try {
			this.current = JSON.parse(this.text);
			return { value: this.current, complete: true };
		} catch (error) {
			return { value: this.current, complete: false, error: (error as Error).message };
		}
	}
}

/** Tolerant parse of possibly incomplete JSON (pi semantics): never throws, `{}` when unparseable. */
export function parseStreamingJson(text: string): unknown {
	if (!text || text.trim() === "") return {};
	try {
		return JSON.parse(text);
	} catch {
		return {};
	}
}
