import { describe, expect, it } from "vitest";
import { parseJsonWithRepair, repairJson } from "../src/utils/json-repair.js";
import { parseStreamingJson, StreamingJsonParser, type StreamingJsonResult } from "../src/utils/streaming-json.js";

/** Feeds `text` in pieces of `size` characters and returns the parser. */
function feed(text: string, size: number): StreamingJsonParser {
	const parser = new StreamingJsonParser();
	for (let start = 0; start < text.length; start += size) parser.push(text.slice(start, start + size));
	return parser;
}

function partialValue(text: string): unknown {
	return feed(text, text.length || 1).value;
}

function finishWith(text: string, size = 1): StreamingJsonResult {
	return feed(text, size).finish();
}

const documents: Record<string, string> = {
	flat: '{"path": "/tmp/a.txt", "count": 3, "force": false, "mode": null}',
	nested: '{"edits": [{"old": "a\\nb", "new": "c\\t\\"d\\""}, {"old": "", "new": "x"}], "meta": {"deep": [[[]], {}]}}',
	numbers: "[0, -0, 1, -12, 3.25, 1e3, 2E-2, -0.5e+10, 123456789012345678901234567890]",
	escapes: '{"s": "quote \\" slash \\/ back \\\\ controls \\b\\f\\n\\r\\t unicode \\u00e9\\u4e2d"}',
	surrogates: '{"emoji": "\\ud83d\\ude00 and raw 😀", "lone": "\\ud800x", "lowFirst": "\\udc00\\ud83d"}',
	whitespace: ' \n\t{ "a" :\r\n [ 1 , 2 ] , "b" : { } }\n ',
	scalarString: '"just a string"',
	scalarNumber: "42.5",
	scalarLiteral: "true",
	emptyKey: '{"": 1, "a b": {"": []}}',
};

describe("StreamingJsonParser: complete documents", () => {
	for (const [name, text] of Object.entries(documents)) {
		for (const size of [1, 2, 3, 7, 64, text.length]) {
			it(`${name} in ${size}-character deltas equals JSON.parse`, () => {
				const result = finishWith(text, size);
				expect(result).toEqual({ value: JSON.parse(text), complete: true });
			});
		}
	}

	it("keeps the text of a lone high surrogate followed by a non-surrogate, as JSON.parse does", () => {
		const text = '"\\ud83dA\\ud83d"';
		expect(finishWith(text).value).toBe(JSON.parse(text));
	});

	it("ignores empty and non-string deltas", () => {
		const parser = new StreamingJsonParser();
		parser.push('{"a": ');
		parser.push("");
		parser.push(undefined as unknown as string);
		parser.push("1}");
		expect(parser.source).toBe('{"a": 1}');
		expect(parser.finish()).toEqual({ value: { a: 1 }, complete: true });
	});

	it("a number of 400 digits in 1-character deltas ends with the value JSON.parse gives", () => {
		const text = `{"big": ${"9".repeat(400)}, "small": -1.5e-3}`;
		expect(finishWith(text)).toEqual({ value: JSON.parse(text), complete: true });
		expect(finishWith("9".repeat(400))).toEqual({ value: Number("9".repeat(400)), complete: true });
	});

	it("reports the received text as source", () => {
		expect(feed(documents.nested, 5).source).toBe(documents.nested);
	});

	it("splits inside every escape give the same string as one delta", () => {
		const text = '{"k": "\\u00e9\\ud83d\\ude00\\n\\\\\\""}';
		for (let cut = 1; cut < text.length; cut++) {
			const parser = new StreamingJsonParser();
			parser.push(text.slice(0, cut));
			parser.push(text.slice(cut));
			expect(parser.finish(), `cut at ${cut}`).toEqual({ value: JSON.parse(text), complete: true });
		}
	});

	it("a deeply nested document (10,000 levels, limit lifted) does not overflow the stack", () => {
		const depth = 10_000;
		const parser = new StreamingJsonParser({ maxDepth: Number.POSITIVE_INFINITY });
		parser.push("[".repeat(depth) + "]".repeat(depth));
		const result = parser.finish();
		expect(result.complete).toBe(true);
		let level: unknown = result.value;
		for (let index = 1; index < depth; index++) level = (level as unknown[])[0];
		expect(level).toEqual([]);
	});
});

describe("StreamingJsonParser: nesting depth limit", () => {
	it("accepts 100 levels by default", () => {
		const parser = feed(`${'{"a":'.repeat(99)}[]${"}".repeat(99)}`, 7);
		expect(parser.limitExceeded).toBe(false);
		expect(parser.finish().complete).toBe(true);
	});

	it("fails past 100 levels with a message naming the limit, and reads nothing more", () => {
		const depth = 100_000;
		const parser = feed(`${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`, 4096);
		expect(parser.limitExceeded).toBe(true);
		expect(parser.finish()).toMatchObject({
			complete: false,
			error: "Objects and arrays nested deeper than 100 levels at position 500",
		});
		// What was kept is a value JSON.stringify can encode.
		expect(() => JSON.stringify(parser.value)).not.toThrow();
	});

	it("takes its limit from the options", () => {
		const parser = feed("[[[1]]]", 1);
		expect(parser.limitExceeded).toBe(false);
		const shallow = new StreamingJsonParser({ maxDepth: 2 });
		shallow.push("[[[1]]]");
		expect(shallow.limitExceeded).toBe(true);
		expect(shallow.finish().error).toBe("Objects and arrays nested deeper than 2 levels at position 2");
	});
});

describe("StreamingJsonParser: partial values", () => {
	const cases: [string, unknown][] = [
		["", undefined],
		["{", {}],
		['{"', {}],
		['{"pa', {}],
		['{"path"', {}],
		['{"path":', {}],
		['{"path": "', { path: "" }],
		['{"path": "/tm', { path: "/tm" }],
		['{"path": "a\\', { path: "a" }],
		['{"path": "a\\u00', { path: "a" }],
		['{"path": "a\\ud83d', { path: "a" }],
		['{"path": "a\\ud83d\\ude', { path: "a" }],
		['{"path": "a"', { path: "a" }],
		['{"path": "a",', { path: "a" }],
		['{"path": "a", "n": -', { path: "a" }],
		['{"n": 1', { n: 1 }],
		['{"n": 1.', { n: 1 }],
		['{"n": 1.5e', { n: 1.5 }],
		['{"n": -2e-', { n: -2 }],
		['{"b": t', { b: true }],
		['{"b": tr', { b: true }],
		['{"b": fal', { b: false }],
		['{"b": nu', { b: null }],
		["[", []],
		["[1, 2", [1, 2]],
		['[1, "tw', [1, "tw"]],
		["[1, [2, [3", [1, [2, [3]]]],
		['{"a": [{"b": {"c": "d', { a: [{ b: { c: "d" } }] }],
		['"unterminated', "unterminated"],
		["-", undefined],
		["12", 12],
	];
	for (const [text, expected] of cases) {
		it(`${JSON.stringify(text)} reads as ${JSON.stringify(expected)}`, () => {
			expect(partialValue(text)).toEqual(expected);
		});
	}

	it("every 1-character prefix of a document gives the same partial as that prefix pushed at once", () => {
		const text = documents.nested;
		const streamed = new StreamingJsonParser();
		for (let end = 1; end <= text.length; end++) {
			streamed.push(text[end - 1]);
			expect(structuredClone(streamed.value), `prefix ${end}`).toEqual(partialValue(text.slice(0, end)));
		}
	});

	it("updates objects and arrays in place: the root object is the same object after every delta", () => {
		const parser = new StreamingJsonParser();
		parser.push('{"list": [');
		const root = parser.value as { list: unknown[] };
		const list = root.list;
		parser.push('1, {"x": "y"}], "more": "text"}');
		expect(parser.value).toBe(root);
		expect(root.list).toBe(list);
		expect(root).toEqual({ list: [1, { x: "y" }], more: "text" });
	});
});

/** A small deterministic PRNG (mulberry32), so a failing random case can be replayed. */
function randomSource(seed: number): () => number {
	let state = seed;
	return () => {
		state = (state + 0x6d2b79f5) | 0;
		let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
		mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
		return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
	};
}

const STRING_PIECES = ["a", "Z", " ", '"', "\\", "/", "\n", "\t", "\u0001", "é", "中", "😀", "__proto__", "\ud800"];

function randomValue(random: () => number, depth: number): unknown {
	const pick = Math.floor(random() * (depth > 3 ? 4 : 6));
	if (pick === 0)
		return Array.from(
			{ length: Math.floor(random() * 6) },
			() => STRING_PIECES[Math.floor(random() * STRING_PIECES.length)],
		).join("");
	if (pick === 1) return [0, -1, 3.5, 1e21, -2.5e-7, 123456][Math.floor(random() * 6)];
	if (pick === 2) return [true, false, null][Math.floor(random() * 3)];
	if (pick === 3) return Math.floor(random() * 1000) - 500;
	if (pick === 4) return Array.from({ length: Math.floor(random() * 4) }, () => randomValue(random, depth + 1));
	const object: Record<string, unknown> = {};
	for (let index = Math.floor(random() * 4); index > 0; index--) {
		const key = ["path", "", "__proto__", "constructor", "k é", 'a"b'][Math.floor(random() * 6)];
		Object.defineProperty(object, key, {
			value: randomValue(random, depth + 1),
			enumerable: true,
			writable: true,
			configurable: true,
		});
	}
	return object;
}

/** JSON text for `value` in one of three styles: compact, pretty, or with non-ASCII as \u escapes. */
function randomJsonText(random: () => number, value: unknown): string {
	const style = Math.floor(random() * 3);
	if (style === 0) return JSON.stringify(value);
	if (style === 1) return JSON.stringify(value, null, "\t");
	return JSON.stringify(value).replace(
		/[\u0080-\uffff]/g,
		(character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`,
	);
}

function randomDeltas(random: () => number, text: string): string[] {
	const deltas: string[] = [];
	for (let start = 0; start < text.length; ) {
		const size = 1 + Math.floor(random() * 8);
		deltas.push(text.slice(start, start + size));
		start += size;
	}
	return deltas;
}

describe("StreamingJsonParser: long numbers in the partial value", () => {
	// Found by fuzzing: "9" in one delta showed 9, and the 400 digits after it left that 9 in place,
	// while the same text in one delta showed nothing.
	it("a long number's partial value does not depend on where the deltas cut it", () => {
		for (const [prefix, empty] of [
			["", undefined],
			["[", []],
			['{"n":', {}],
		] as const) {
			const parser = new StreamingJsonParser();
			parser.push(`${prefix}9`);
			expect(parser.value).toEqual(prefix === "" ? 9 : prefix === "[" ? [9] : { n: 9 });
			parser.push("9".repeat(400));
			expect(parser.value).toEqual(empty);
			const whole = new StreamingJsonParser();
			whole.push(`${prefix}${"9".repeat(401)}`);
			expect(parser.value).toEqual(whole.value);
		}
	});
});

describe("StreamingJsonParser: random documents and random splits", () => {
	it("500 random documents in random deltas equal JSON.parse, and every partial equals a one-push parse of the prefix", () => {
		const random = randomSource(20261121);
		for (let documentIndex = 0; documentIndex < 500; documentIndex++) {
			const text = randomJsonText(random, randomValue(random, 0));
			const parser = new StreamingJsonParser();
			let prefix = "";
			for (const delta of randomDeltas(random, text)) {
				parser.push(delta);
				prefix += delta;
				expect(structuredClone(parser.value), `document ${documentIndex}, prefix ${JSON.stringify(prefix)}`).toEqual(
					partialValue(prefix),
				);
			}
			expect(parser.finish(), `document ${documentIndex}: ${text}`).toEqual({
				value: JSON.parse(text),
				complete: true,
			});
		}
	});
});

describe("StreamingJsonParser: invalid input", () => {
	const invalid: [string, RegExp, unknown][] = [
		["not json", /Unexpected "o" at position 1: expected the rest of "null"/, undefined],
		["}", /Unexpected "}" at position 0: expected a JSON value/, undefined],
		['{"a": 1}}', /Unexpected "}" at position 8: expected nothing after the JSON value/, { a: 1 }],
		['{"a" 1}', /Unexpected "1" at position 5: expected a ":" after the key/, {}],
		["{a: 1}", /expected a double-quoted key/, {}],
		['{"a": 1 "b": 2}', /expected a "," or "}"/, { a: 1 }],
		["[1 2]", /expected a "," or "]"/, [1]],
		["[1,]", /Unexpected "]" at position 3: expected a JSON value/, [1]],
		["[01]", /more of the number "0"/, [0]],
		["[1.]", /more of the number "1."/, [1]],
		["[--1]", /more of the number "-"/, []],
		['{"a": trux}', /expected the rest of "true"/, { a: true }],
	];
	for (const [text, error, best] of invalid) {
		it(`${JSON.stringify(text)} fails with a clear error and keeps ${JSON.stringify(best)}`, () => {
			expect(() => JSON.parse(text)).toThrow();
			for (const size of [1, text.length]) {
				const result = finishWith(text, size);
				expect(result.complete).toBe(false);
				expect(result.error).toMatch(error);
				expect(result.value).toEqual(best);
			}
		});
	}

	it("ignores everything after the first error", () => {
		const parser = feed('{"a": 1} garbage {"b": 2}', 1);
		expect(parser.value).toEqual({ a: 1 });
		expect(parser.finish().error).toMatch(/position 9/);
	});

	it("an unterminated document is incomplete, names what is open, and keeps the partial value", () => {
		expect(finishWith('{"a": [1, "tw')).toEqual({
			value: { a: [1, "tw"] },
			complete: false,
			error: "Unexpected end of JSON input at position 13: unterminated string (2 unclosed containers)",
		});
		expect(finishWith("[1, 2").error).toMatch(/incomplete number "2" \(1 unclosed container\)/);
		expect(finishWith('{"a": 1').error).toMatch(/incomplete number "1"/);
		expect(finishWith("[1,").error).toMatch(/unclosed array/);
		expect(finishWith('{"a": nu').error).toMatch(/incomplete literal "nu"/);
	});

	it("empty and blank text is not complete", () => {
		expect(finishWith("")).toEqual({ value: undefined, complete: false, error: "No JSON received: the text is empty" });
		expect(finishWith("  \n").complete).toBe(false);
	});

	it("tolerates a raw control character in a string, keeps it, and reports it", () => {
		const result = finishWith('{"code": "line one\nline two"}');
		expect(result.value).toEqual({ code: "line one\nline two" });
		expect(result.complete).toBe(false);
		expect(result.error).toBe("Unescaped control character U+000A in a string at position 18 (kept as is)");
	});

	it("tolerates an invalid escape as a literal backslash, like repairJson", () => {
		const text = '{"path": "C:\\Users\\dir", "u": "\\uZZ"}';
		const result = finishWith(text);
		expect(result.value).toEqual({ path: "C:\\Users\\dir", u: "\\uZZ" });
		expect(result.value).toEqual(JSON.parse(repairJson(text)));
		expect(result.error).toMatch(/Invalid escape "\\U" in a string at position 12/);
	});
});

describe("StreamingJsonParser: prototype keys", () => {
	it("creates __proto__ and constructor as own data properties without touching any prototype", () => {
		const text =
			'{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}, "nested": [{"__proto__": 1}]}';
		for (const size of [1, 4, text.length]) {
			const result = finishWith(text, size);
			const value = result.value as Record<string, unknown>;
			expect(result.complete).toBe(true);
			expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
			expect(Object.keys(value)).toEqual(["__proto__", "constructor", "nested"]);
			expect(Object.getOwnPropertyDescriptor(value, "__proto__")?.value).toEqual({ polluted: true });
			expect(({} as Record<string, unknown>).polluted).toBeUndefined();
			expect(value).toEqual(JSON.parse(text));
		}
	});

	it("a partial __proto__ string value stays an own property", () => {
		const value = partialValue('{"__proto__": "abc') as Record<string, unknown>;
		expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
		expect(Object.getOwnPropertyDescriptor(value, "__proto__")?.value).toBe("abc");
	});
});

describe("parseStreamingJson (pi semantics)", () => {
	it.each([
		["", {}],
		["   ", {}],
		['{"a": "hel', { a: "hel" }],
		['{"a": tr', { a: true }],
		["not json", {}],
		['{"a":1}}', { a: 1 }],
		['{"a": [1, 2], "b": {"c": null}}', { a: [1, 2], b: { c: null } }],
		["[1, 2", [1, 2]],
	])("%j → %j", (text, expected) => {
		expect(parseStreamingJson(text)).toEqual(expected);
	});
});

describe("repairJson and parseJsonWithRepair", () => {
	it("escapes raw control characters inside strings only", () => {
		expect(repairJson('{"a": "x\ny\tz\u0001"}\n')).toBe('{"a": "x\\ny\\tz\\u0001"}\n');
	});

	it("doubles backslashes that do not start a valid escape and keeps valid ones", () => {
		expect(repairJson('{"p": "C:\\Users\\n\\u00e9\\u12"}')).toBe('{"p": "C:\\\\Users\\n\\u00e9\\\\u12"}');
	});

	it("leaves valid JSON unchanged (the same string)", () => {
		const text = documents.escapes;
		expect(repairJson(text)).toBe(text);
	});

	it("parseJsonWithRepair parses valid, repairable and rejects broken JSON with the original error", () => {
		expect(parseJsonWithRepair('{"a": [1]}')).toEqual({ a: [1] });
		expect(parseJsonWithRepair('{"dir": "C:\\temp\\new\nline"}')).toEqual({ dir: "C:\temp\new\nline" });
		expect(parseJsonWithRepair('{"dir": "C:\\Users"}')).toEqual({ dir: "C:\\Users" });
		expect(() => parseJsonWithRepair('{"a": ')).toThrow(/^Invalid JSON, even after repair: /);
		expect(() => parseJsonWithRepair('{"a": ')).toThrow(SyntaxError);
	});
});
