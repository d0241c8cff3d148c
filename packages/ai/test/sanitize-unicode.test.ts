import { describe, expect, it } from "vitest";
import { sanitizeSurrogates } from "../src/utils/sanitize-unicode.js";

describe("sanitizeSurrogates", () => {
	it("keeps paired surrogates (emoji) and plain text unchanged", () => {
		expect(sanitizeSurrogates("hello 🙈 wörld 𝄞")).toBe("hello 🙈 wörld 𝄞");
		expect(sanitizeSurrogates("")).toBe("");
	});

	it("removes a high surrogate with no low surrogate after it", () => {
		expect(sanitizeSurrogates("cut \uD83D")).toBe("cut ");
		expect(sanitizeSurrogates("\uD83Dx")).toBe("x");
		expect(sanitizeSurrogates("\uD83D\uD83D\uDE48")).toBe("🙈");
	});

	it("removes a low surrogate with no high surrogate before it", () => {
		expect(sanitizeSurrogates("\uDE48tail")).toBe("tail");
		expect(sanitizeSurrogates("🙈\uDE48")).toBe("🙈");
	});

	it("returns the very same string when there is nothing to remove (fast path)", () => {
		const text = "a".repeat(10_000);
		expect(sanitizeSurrogates(text)).toBe(text);
	});

	it("output is always well formed, so JSON.stringify emits no lone escapes", () => {
		const broken = "x\uD800y\uDFFFz\uDBFF";
		const clean = sanitizeSurrogates(broken);
		expect(clean).toBe("xyz");
		expect(JSON.stringify(clean)).not.toMatch(/\\ud[89a-f]/i);
	});

	it("matches a reference definition on many mixed strings", () => {
		// The definition, as a lookbehind regex: slower, but obviously right.
		const reference = (text: string) =>
			text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "");
		const alphabet = ["a", "é", "\uD83D", "\uDE48", "🙈", "\uDBFF", "\uDC00", " "];
		let seed = 12345;
		const next = () => {
			seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
			return seed;
		};
		for (let sample = 0; sample < 2000; sample++) {
			let text = "";
			const length = next() % 12;
			for (let index = 0; index < length; index++) text += alphabet[next() % alphabet.length];
			expect(sanitizeSurrogates(text)).toBe(reference(text));
		}
	});
});
