// Incremental JSON parsing for tool-call arguments that arrive in small deltas.
//
// Re-parsing the whole accumulated buffer on every delta would make a 256 KB argument streamed in
// 64-byte pieces cost quadratic time (about 4000 parses of a growing text). This parser is a
// character-level state machine with a container stack: every character is looked at once, the
// object and array values are built in place, and `value` is readable after any delta.

/** Result of finishing a streamed JSON document. */
export interface StreamingJsonResult {
	value: unknown;
	/** True when the whole text was one complete, valid JSON value. */
	complete: boolean;
	/** Why the text was not valid JSON, when it was not. */
	error?: string;
}

type JsonObject = Record<string, unknown>;

/** An open object or array, and where the member being parsed goes in it. */
interface Frame {
	container: JsonObject | unknown[];
	isArray: boolean;
	/** Object: the key of the member being parsed. */
	key: string;
	/** Array: the index of the element being parsed. */
	index: number;
}

// What the parser expects next. Plain numbers rather than an enum: this is the hot loop.
const EXPECT_VALUE = 0;
const EXPECT_VALUE_OR_ARRAY_END = 1;
const EXPECT_KEY_OR_OBJECT_END = 2;
const EXPECT_KEY = 3;
const EXPECT_COLON = 4;
const EXPECT_SEPARATOR_OR_END = 5;
const EXPECT_NOTHING = 6;
const IN_STRING = 7;
const IN_STRING_ESCAPE = 8;
const IN_STRING_UNICODE = 9;
const IN_NUMBER = 10;
const IN_LITERAL = 11;
const FAILED = 12;

// Number grammar states: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
const NUMBER_SIGN = 0;
const NUMBER_ZERO = 1;
const NUMBER_INTEGER = 2;
const NUMBER_DOT = 3;
const NUMBER_FRACTION = 4;
const NUMBER_EXPONENT_MARK = 5;
const NUMBER_EXPONENT_SIGN = 6;
const NUMBER_EXPONENT = 7;

/**
 * Longer numbers show no partial value until they end: re-reading a number on every delta would
 * make an absurdly long one (thousands of digits) quadratic. A double has 17 significant digits.
 */
const MAX_PARTIAL_NUMBER_LENGTH = 40;

/**
 * Deepest nesting of objects and arrays accepted by default. JSON.parse builds deeper values
 * without complaint, but JSON.stringify, structuredClone and schema validation recurse and
 * overflow the call stack somewhere past a few thousand levels: a tool call nested that deep would
 * make every later request of its conversation fail while encoding. No tool schema comes near 100.
 */
export const DEFAULT_MAX_JSON_DEPTH = 100;

export interface StreamingJsonParserOptions {
	/** Deepest nesting of objects and arrays; deeper input fails with `limitExceeded`. Default 100. */
	maxDepth?: number;
}

const SIMPLE_ESCAPES: Record<string, string> = {
	'"': '"',
	"\\": "\\",
	"/": "/",
	b: "\b",
	f: "\f",
	n: "\n",
	r: "\r",
	t: "\t",
};

const LITERALS: Record<string, { text: string; value: unknown }> = {
	t: { text: "true", value: true },
	f: { text: "false", value: false },
	n: { text: "null", value: null },
};

/**
 * Incremental parser for JSON that arrives in pieces (tool-call arguments). `push` does work
 * proportional to the delta; `value` is the best-effort value so far (objects and arrays are
 * updated in place); `finish` settles the final value.
 *
 * Partial values read as a UI wants to show them while they grow: an unterminated string shows its
 * text so far, a partial literal (`tr`) counts as the literal it starts, a partial number (`1.`,
 * `2e`) as its digits, unterminated containers are closed, and a key whose value has not started
 * is left out.
 * Two slips models make are tolerated like `repairJson` does (a raw control character inside a
 * string, an invalid backslash escape): the value keeps the text, and `finish` reports it.
 */
export class StreamingJsonParser {
	private received = "";
	/** Characters consumed before the current delta, for error positions. */
	private offset = 0;
	private root: unknown = undefined;
	private readonly stack: Frame[] = [];
	private mode = EXPECT_VALUE;
	private errorMessage: string | undefined;
	private repairNote: string | undefined;

	// The string being read (a value or a key).
	private stringValue = "";
	private stringIsKey = false;
	/** A `\uD800`–`\uDBFF` escape waiting for its low half; not shown in the partial value. */
	private pendingHighSurrogate = -1;
	private unicodeDigits = "";

	private numberText = "";
	private numberState = NUMBER_SIGN;
	/** True while the partial value shows a prefix of the number being read. */
	private numberShown = false;

	private literalText = "";
	private literalIndex = 0;

	private readonly maxDepth: number;
	private depthExceeded = false;

	constructor(options: StreamingJsonParserOptions = {}) {
		this.maxDepth = options.maxDepth ?? DEFAULT_MAX_JSON_DEPTH;
	}

	/** True when the input broke a limit (nesting depth): the partial value is not the whole of it. */
	get limitExceeded(): boolean {
		return this.depthExceeded;
	}

	push(delta: string): void {
		// Decoders pass SDK fields straight through; a missing one must not become the text "undefined".
		if (typeof delta !== "string" || delta === "") return;
		this.received += delta;
		if (this.mode !== FAILED) {
			this.consume(delta);
			this.publishPartialScalar();
		}
		this.offset += delta.length;
	}

	get value(): unknown {
		return this.root;
	}

	/** The raw text received so far. */
	get source(): string {
		return this.received;
	}

	finish(): StreamingJsonResult {
		if (this.mode === FAILED) return { value: this.root, complete: false, error: this.errorMessage };
		if (this.received.trim() === "") {
			return { value: this.root, complete: false, error: "No JSON received: the text is empty" };
		}
		const atEnd =
			this.mode === EXPECT_NOTHING || (this.mode === IN_NUMBER && this.stack.length === 0 && this.numberIsComplete());
		if (!atEnd) {
			return {
				value: this.root,
				complete: false,
				error: `Unexpected end of JSON input at position ${this.offset}: ${this.describeOpenState()}`,
			};
		}
		// A number at the very end has no character after it to end it: end it here.
		if (this.mode === IN_NUMBER) this.setSlot(Number(this.numberText));
		if (this.repairNote !== undefined) return { value: this.root, complete: false, error: this.repairNote };
		return { value: this.root, complete: true };
	}

	// --- the state machine ----------------------------------------------------------------------

	private consume(text: string): void {
		const length = text.length;
		let position = 0;
		while (position < length) {
			switch (this.mode) {
				case IN_STRING:
					position = this.consumeStringRun(text, position);
					continue;
				case IN_STRING_ESCAPE:
					this.consumeEscape(text[position], position);
					position++;
					continue;
				case IN_STRING_UNICODE:
					if (this.consumeUnicodeDigit(text[position], position)) position++;
					continue;
				case IN_NUMBER:
					if (this.consumeNumberCharacter(text.charCodeAt(position), position)) position++;
					continue;
				case IN_LITERAL:
					this.consumeLiteralCharacter(text[position], position);
					position++;
					continue;
				case FAILED:
					return;
			}
			const code = text.charCodeAt(position);
			// JSON whitespace: space, tab, line feed, carriage return.
			if (code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d) {
				position++;
				continue;
			}
			this.consumeStructural(text[position], position);
			position++;
		}
	}

	private consumeStructural(character: string, position: number): void {
		const mode = this.mode;
		if (mode === EXPECT_VALUE_OR_ARRAY_END && character === "]") this.closeContainer();
		else if (mode === EXPECT_VALUE || mode === EXPECT_VALUE_OR_ARRAY_END) this.startValue(character, position);
		else if (mode === EXPECT_KEY_OR_OBJECT_END && character === "}") this.closeContainer();
		else if (mode === EXPECT_KEY || mode === EXPECT_KEY_OR_OBJECT_END) {
			if (character === '"') this.startString(true);
			else this.fail(character, position, "a double-quoted key");
		} else if (mode === EXPECT_COLON) {
			if (character === ":") this.mode = EXPECT_VALUE;
			else this.fail(character, position, 'a ":" after the key');
		} else if (mode === EXPECT_SEPARATOR_OR_END) {
			const isArray = this.stack[this.stack.length - 1].isArray;
			if (character === ",") this.mode = isArray ? EXPECT_VALUE : EXPECT_KEY;
			else if (character === (isArray ? "]" : "}")) this.closeContainer();
			else this.fail(character, position, isArray ? 'a "," or "]"' : 'a "," or "}"');
		} else {
			this.fail(character, position, "nothing after the JSON value");
		}
	}

	private startValue(character: string, position: number): void {
		const frame = this.stack[this.stack.length - 1];
		if (frame?.isArray) frame.index = (frame.container as unknown[]).length;
		if ((character === "{" || character === "[") && this.stack.length >= this.maxDepth) {
			this.failOverLimit(
				`Objects and arrays nested deeper than ${this.maxDepth} levels at position ${this.offset + position}`,
			);
			return;
		}
		if (character === "{") {
			const object: JsonObject = {};
			this.setSlot(object);
			this.stack.push({ container: object, isArray: false, key: "", index: 0 });
			this.mode = EXPECT_KEY_OR_OBJECT_END;
		} else if (character === "[") {
			const array: unknown[] = [];
			this.setSlot(array);
			this.stack.push({ container: array, isArray: true, key: "", index: 0 });
			this.mode = EXPECT_VALUE_OR_ARRAY_END;
		} else if (character === '"') {
			this.startString(false);
			this.setSlot("");
		} else if (character === "-" || (character >= "0" && character <= "9")) {
			this.numberText = "";
			this.numberState = NUMBER_SIGN;
			this.numberShown = false;
			this.mode = IN_NUMBER;
			this.consumeNumberCharacter(character.charCodeAt(0), position);
		} else if (Object.hasOwn(LITERALS, character)) {
			const literal = LITERALS[character];
			// The first letter already decides the literal, so the partial value can show it.
			this.setSlot(literal.value);
			this.literalText = literal.text;
			this.literalIndex = 1;
			this.mode = IN_LITERAL;
		} else {
			this.fail(character, position, "a JSON value");
		}
	}

	private closeContainer(): void {
		this.stack.pop();
		this.afterValue();
	}

	private afterValue(): void {
		this.mode = this.stack.length === 0 ? EXPECT_NOTHING : EXPECT_SEPARATOR_OR_END;
	}

	/** Stores a value where the member being parsed goes: the root, an array slot, or an object key. */
	private setSlot(value: unknown): void {
		const frame = this.stack[this.stack.length - 1];
		if (!frame) this.root = value;
		else if (frame.isArray) (frame.container as unknown[])[frame.index] = value;
		else setOwnProperty(frame.container as JsonObject, frame.key, value);
	}

	/** Shows the string or number being read in the partial value (once per delta, O(1)). */
	private publishPartialScalar(): void {
		if (this.mode === IN_STRING || this.mode === IN_STRING_ESCAPE || this.mode === IN_STRING_UNICODE) {
			if (!this.stringIsKey) this.setSlot(this.stringValue);
		} else if (this.mode === IN_NUMBER && this.numberText.length <= MAX_PARTIAL_NUMBER_LENGTH) {
			// parseFloat reads the longest valid prefix: "1." → 1, "2e-" → 2, "-" → NaN (nothing yet).
			const partial = Number.parseFloat(this.numberText);
			if (!Number.isNaN(partial)) {
				this.setSlot(partial);
				this.numberShown = true;
			}
		} else if (this.mode === IN_NUMBER && this.numberShown) {
			// The number outgrew what is shown: the prefix an earlier delta showed is withdrawn, so the
			// partial value does not depend on where the deltas were cut.
			this.clearSlot();
			this.numberShown = false;
		}
	}

	/** Removes the value of the member being parsed (an array's last slot, an object's key, the root). */
	private clearSlot(): void {
		const frame = this.stack[this.stack.length - 1];
		if (!frame) this.root = undefined;
		else if (frame.isArray) (frame.container as unknown[]).length = frame.index;
		else delete (frame.container as JsonObject)[frame.key];
	}

	// --- strings --------------------------------------------------------------------------------

	private startString(isKey: boolean): void {
		this.stringValue = "";
		this.stringIsKey = isKey;
		this.pendingHighSurrogate = -1;
		this.mode = IN_STRING;
	}

	/** Copies the run of plain characters up to the next quote, backslash or control character. */
	private consumeStringRun(text: string, start: number): number {
		let position = start;
		const length = text.length;
		while (position < length) {
			const code = text.charCodeAt(position);
			if (code === 0x22 || code === 0x5c || code < 0x20) break;
			position++;
		}
		if (position > start) this.appendToString(text.slice(start, position));
		if (position === length) return position;
		const code = text.charCodeAt(position);
		if (code === 0x22) {
			this.endString();
		} else if (code === 0x5c) {
			this.mode = IN_STRING_ESCAPE;
		} else {
			// JSON.parse rejects raw control characters; models emit raw newlines now and then.
			this.noteRepair(
				`Unescaped control character U+${code.toString(16).padStart(4, "0").toUpperCase()} in a string at position ${this.offset + position} (kept as is)`,
			);
			this.appendToString(text[position]);
		}
		return position + 1;
	}

	private consumeEscape(character: string, position: number): void {
		if (character === "u") {
			this.unicodeDigits = "";
			this.mode = IN_STRING_UNICODE;
			return;
		}
		this.mode = IN_STRING;
		const replacement = SIMPLE_ESCAPES[character];
		if (replacement !== undefined) {
			this.appendToString(replacement);
			return;
		}
		this.noteRepair(
			`Invalid escape "\\${character}" in a string at position ${this.offset + position - 1} (kept as a literal backslash)`,
		);
		this.appendToString(`\\${character}`);
	}

	/** Returns false when the character was not a hex digit and must be read again as string text. */
	private consumeUnicodeDigit(character: string, position: number): boolean {
		if (!isHexDigit(character)) {
			this.noteRepair(
				`Invalid escape "\\u${this.unicodeDigits}" in a string at position ${this.offset + position - this.unicodeDigits.length - 2} (kept as a literal backslash)`,
			);
			this.appendToString(`\\u${this.unicodeDigits}`);
			this.mode = IN_STRING;
			return false;
		}
		this.unicodeDigits += character;
		if (this.unicodeDigits.length < 4) return true;
		this.mode = IN_STRING;
		const unit = Number.parseInt(this.unicodeDigits, 16);
		const pending = this.pendingHighSurrogate;
		if (pending !== -1 && unit >= 0xdc00 && unit <= 0xdfff) {
			this.pendingHighSurrogate = -1;
			this.stringValue += String.fromCharCode(pending, unit);
		} else if (unit >= 0xd800 && unit <= 0xdbff) {
			this.flushPendingSurrogate();
			this.pendingHighSurrogate = unit;
		} else {
			this.appendToString(String.fromCharCode(unit));
		}
		return true;
	}

	private appendToString(text: string): void {
		if (this.pendingHighSurrogate !== -1) this.flushPendingSurrogate();
		this.stringValue += text;
	}

	/** A high surrogate not followed by a low one stays a lone code unit, as JSON.parse keeps it. */
	private flushPendingSurrogate(): void {
		if (this.pendingHighSurrogate === -1) return;
		this.stringValue += String.fromCharCode(this.pendingHighSurrogate);
		this.pendingHighSurrogate = -1;
	}

	private endString(): void {
		this.flushPendingSurrogate();
		if (this.stringIsKey) {
			this.stack[this.stack.length - 1].key = this.stringValue;
			this.mode = EXPECT_COLON;
		} else {
			this.setSlot(this.stringValue);
			this.afterValue();
		}
		this.stringValue = "";
	}

	// --- numbers and literals -------------------------------------------------------------------

	/** Returns false when the character ends the number and must be read again. */
	private consumeNumberCharacter(code: number, position: number): boolean {
		const state = this.numberState;
		let next = -1;
		if (code >= 0x30 && code <= 0x39) {
			if (state === NUMBER_SIGN) next = code === 0x30 ? NUMBER_ZERO : NUMBER_INTEGER;
			else if (state === NUMBER_INTEGER) next = NUMBER_INTEGER;
			else if (state === NUMBER_DOT || state === NUMBER_FRACTION) next = NUMBER_FRACTION;
			else if (state >= NUMBER_EXPONENT_MARK) next = NUMBER_EXPONENT;
			// After a leading zero a digit is invalid ("01"); next stays -1.
		} else if (code === 0x2e) {
			if (state === NUMBER_ZERO || state === NUMBER_INTEGER) next = NUMBER_DOT;
		} else if (code === 0x65 || code === 0x45) {
			if (state === NUMBER_ZERO || state === NUMBER_INTEGER || state === NUMBER_FRACTION) next = NUMBER_EXPONENT_MARK;
		} else if (code === 0x2b || code === 0x2d) {
			if (state === NUMBER_EXPONENT_MARK) next = NUMBER_EXPONENT_SIGN;
			else if (state === NUMBER_SIGN && this.numberText === "") next = NUMBER_SIGN;
		} else if (this.numberIsComplete()) {
			this.setSlot(Number(this.numberText));
			this.afterValue();
			return false;
		}
		if (next === -1) {
			this.fail(String.fromCharCode(code), position, `more of the number "${this.numberText}"`);
			return true;
		}
		this.numberState = next;
		this.numberText += String.fromCharCode(code);
		return true;
	}

	private numberIsComplete(): boolean {
		const state = this.numberState;
		return state === NUMBER_ZERO || state === NUMBER_INTEGER || state === NUMBER_FRACTION || state === NUMBER_EXPONENT;
	}

	private consumeLiteralCharacter(character: string, position: number): void {
		if (character !== this.literalText[this.literalIndex]) {
			this.fail(character, position, `the rest of "${this.literalText}"`);
			return;
		}
		this.literalIndex++;
		if (this.literalIndex === this.literalText.length) this.afterValue();
	}

	// --- errors ---------------------------------------------------------------------------------

	private fail(character: string, position: number, expected: string): void {
		// The best value is the one of the valid prefix, whatever the delta boundaries were.
		this.publishPartialScalar();
		this.mode = FAILED;
		// A bare scalar that then breaks ("not json" starts like null) is garbage, not a partial value.
		if (this.stack.length === 0 && (typeof this.root !== "object" || this.root === null)) this.root = undefined;
		this.errorMessage = `Unexpected ${JSON.stringify(character)} at position ${this.offset + position}: expected ${expected}`;
	}

	private failOverLimit(message: string): void {
		this.mode = FAILED;
		this.depthExceeded = true;
		this.errorMessage = message;
	}

	private noteRepair(note: string): void {
		this.repairNote ??= note;
	}

	private describeOpenState(): string {
		const open = this.stack.length;
		const containers = open === 0 ? "" : ` (${open} unclosed ${open === 1 ? "container" : "containers"})`;
		switch (this.mode) {
			case IN_STRING:
			case IN_STRING_ESCAPE:
			case IN_STRING_UNICODE:
				return `unterminated ${this.stringIsKey ? "key" : "string"}${containers}`;
			case IN_NUMBER:
				return `incomplete number "${this.numberText}"${containers}`;
			case IN_LITERAL:
				return `incomplete literal "${this.literalText.slice(0, this.literalIndex)}"${containers}`;
			default:
				return open === 0 ? "no value" : `unclosed ${this.stack[open - 1].isArray ? "array" : "object"}${containers}`;
		}
	}
}

/**
 * Tolerant parse of possibly incomplete JSON: empty or blank text gives `{}`; valid JSON is parsed
 * as is; otherwise the best partial value (`{"a": "hel` → `{a: "hel"}`, `{"a":1}}` → `{a: 1}`);
 * `{}` when nothing could be read. Never throws.
 */
export function parseStreamingJson(text: string): unknown {
	if (typeof text !== "string" || text.trim() === "") return {};
	try {
		return JSON.parse(text);
	} catch {
		const parser = new StreamingJsonParser();
		parser.push(text);
		return parser.value === undefined ? {} : parser.value;
	}
}

/**
 * Sets `key` as an own data property. Plain assignment of `__proto__` would call the
 * Object.prototype setter and replace the object's prototype; JSON.parse creates a data property.
 */
export function setOwnProperty(target: JsonObject, key: string, value: unknown): void {
	if (key === "__proto__") {
		Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
	} else {
		target[key] = value;
	}
}

function isHexDigit(character: string): boolean {
	return (
		(character >= "0" && character <= "9") ||
		(character >= "a" && character <= "f") ||
		(character >= "A" && character <= "F")
	);
}
