// The arguments of one tool call while it streams: the raw text (parsed once, strictly, when the call
// ends) and the partial object in between, for code that decodes a provider's tool-call deltas itself.
import { StreamingJsonParser } from "../utils/streaming-json.js";
import { parseToolCallArguments } from "./tool-call-arguments.js";

type Arguments = Record<string, unknown>;

export class ToolCallArgumentsStream {
	#text = "";
	#parser = new StreamingJsonParser();
	#shown = "{}";
	#arguments: Arguments = {};

	/** The raw argument text received so far. */
	get text(): string {
		return this.#text;
	}

	/** Adds a piece of argument text; returns the partial arguments, a new object whenever they changed. */
	append(delta: string): Arguments {
		this.#text += delta;
		this.#parser.push(delta);
		return this.#partial();
	}

	/**
	 * Takes the provider's complete argument text. When it continues the text so far, the missing piece
	 * comes back as `delta`; otherwise the stream starts over from `text` and `delta` is undefined.
	 */
	replace(text: string): { readonly delta: string | undefined; readonly arguments: Arguments } {
		if (text.startsWith(this.#text)) {
			const delta = text.slice(this.#text.length);
			return { delta, arguments: delta === "" ? this.#arguments : this.append(delta) };
		}
		this.#text = "";
		this.#parser = new StreamingJsonParser();
		return { delta: undefined, arguments: this.append(text) };
	}

	/** The final arguments: one strict parse of the whole text, with `argumentsError` when it is malformed. */
	finish(): { arguments: Arguments; argumentsError?: string } {
		return parseToolCallArguments(this.#text);
	}

	/**
	 * The parser grows its value in place, so callers get a copy, made only when the value changed:
	 * holding on to one partial object never shows later text. Tool arguments are an object; any other
	 * partial value reads as no arguments yet.
	 */
	#partial(): Arguments {
		const value = this.#parser.value;
		const current = typeof value === "object" && value !== null && !Array.isArray(value) ? value : {};
		const shown = JSON.stringify(current);
		if (shown !== this.#shown) {
			this.#shown = shown;
			this.#arguments = JSON.parse(shown) as Arguments;
		}
		return this.#arguments;
	}
}
