// Repairs for the two slips models make most in JSON they write by hand (tool arguments, structured
// output): raw control characters inside strings (a literal newline in a code snippet) and
// backslashes that do not start a valid escape (a Windows path such as "C:\Users").

const CONTROL_CHARACTER_ESCAPES: Record<number, string> = {
	8: "\\b",
	9: "\\t",
	10: "\\n",
	12: "\\f",
	13: "\\r",
};

const VALID_SIMPLE_ESCAPES = new Set(['"', "\\", "/", "b", "f", "n", "r", "t"]);

/**
 * Returns `text` with raw control characters inside strings escaped and invalid backslash escapes
 * doubled (so `\d` reads as a backslash and a "d"). Text outside strings is left alone, so valid
 * JSON comes back unchanged. One pass, linear in the length.
 */
export function repairJson(text: string): string {
	let output = "";
	let runStart = 0;
	let inString = false;
	const length = text.length;
	for (let position = 0; position < length; position++) {
		const code = text.charCodeAt(position);
		if (!inString) {
			if (code === 0x22) inString = true;
			continue;
		}
		if (code === 0x22) {
			inString = false;
		} else if (code === 0x5c) {
			const next = text[position + 1];
			if (next !== undefined && (VALID_SIMPLE_ESCAPES.has(next) || (next === "u" && isUnicodeEscape(text, position)))) {
				// A valid escape: keep both characters and skip the escaped one.
				position++;
			} else {
				output += `${text.slice(runStart, position)}\\\\`;
				runStart = position + 1;
			}
		} else if (code < 0x20) {
			output += text.slice(runStart, position) + escapeControlCharacter(code);
			runStart = position + 1;
		}
	}
	return runStart === 0 ? text : output + text.slice(runStart);
}

/**
 * `JSON.parse`, and when that fails, `JSON.parse` of `repairJson(text)`. Throws a SyntaxError that
 * names the original problem when the repaired text is still not JSON.
 */
export function parseJsonWithRepair<T = unknown>(text: string): T {
	try {
		return JSON.parse(text) as T;
	} catch (originalError) {
		const repaired = repairJson(text);
		if (repaired !== text) {
			try {
				return JSON.parse(repaired) as T;
			} catch {
				// Report the error in the text the caller gave, not in our repaired copy.
			}
		}
		throw new SyntaxError(`Invalid JSON, even after repair: ${(originalError as Error).message}`);
	}
}

function isUnicodeEscape(text: string, backslashPosition: number): boolean {
	return /^[0-9a-fA-F]{4}$/.test(text.slice(backslashPosition + 2, backslashPosition + 6));
}

function escapeControlCharacter(code: number): string {
	return CONTROL_CHARACTER_ESCAPES[code] ?? `\\u${code.toString(16).padStart(4, "0")}`;
}
