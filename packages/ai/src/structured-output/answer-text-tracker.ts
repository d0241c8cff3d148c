// Which text of a streaming answer is the JSON answer. A model may write prose before it ("Sure,
// here it is:") in a block of its own, or call the answer tool after a sentence of text: feeding
// that prose to the JSON parser would fail it for the rest of the answer. So the parser follows
// one text block, the first that opens like a JSON object; the text blocks after it continue it
// (an answer a provider split over two blocks), as `readAnswer` joins them at the end. Prose
// blocks before it are ignored.
import { StreamingJsonParser } from "../utils/streaming-json.js";

export class AnswerTextTracker {
	private parser: StreamingJsonParser | undefined;
	/** The content index of the answer's first text block, once one opened like JSON. */
	private answerIndex: number | undefined;
	/** Text blocks seen to be prose (their first non-blank character is not `{`). */
	private readonly proseBlocks = new Set<number>();
	/** Leading blank text of a block whose first character has not arrived yet. */
	private readonly pendingBlank = new Map<number, string>();

	/** Feeds a text delta of block `contentIndex`; returns true when the partial value may have changed. */
	push(contentIndex: number, delta: string): boolean {
		if (typeof delta !== "string" || delta === "") return false;
		if (this.parser && this.answerIndex !== undefined && contentIndex >= this.answerIndex) {
			this.parser.push(delta);
			return true;
		}
		if (this.answerIndex !== undefined || this.proseBlocks.has(contentIndex)) return false;
		const start = delta.search(/\S/);
		if (start === -1) {
			this.pendingBlank.set(contentIndex, (this.pendingBlank.get(contentIndex) ?? "") + delta);
			return false;
		}
		if (delta[start] !== "{") {
			this.proseBlocks.add(contentIndex);
			this.pendingBlank.delete(contentIndex);
			return false;
		}
		this.answerIndex = contentIndex;
		this.parser = new StreamingJsonParser();
		this.parser.push((this.pendingBlank.get(contentIndex) ?? "") + delta);
		this.pendingBlank.clear();
		return true;
	}

	/** The answer's partial value, or undefined before an answer text opened. */
	get value(): unknown {
		return this.parser?.value;
	}
}
