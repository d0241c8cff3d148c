// A lone UTF-16 surrogate (half of a pair, for example from a string cut in the middle of an emoji)
// makes JSON.stringify emit "\ud83d", which several APIs reject with a 400. Providers run outgoing
// text through `sanitizeSurrogates` before encoding a request.

const ANY_SURROGATE = /[\uD800-\uDFFF]/;

type WellFormedCheck = (this: string) => boolean;
// String.prototype.isWellFormed is native in Node 20 and current browsers; older engines fall back to a regex.
const isWellFormed = (String.prototype as { isWellFormed?: WellFormedCheck }).isWellFormed;

/**
 * Removes unpaired surrogates: a high surrogate not followed by a low one, and a low surrogate not
 * preceded by a high one. Properly paired characters (emoji) are kept. Text without lone surrogates
 * is returned as is (the same string, no copy), which is the common case.
 */
export function sanitizeSurrogates(text: string): string {
	const clean = isWellFormed ? isWellFormed.call(text) : !ANY_SURROGATE.test(text);
	if (clean) return text;
	return removeLoneSurrogates(text);
}

// One pass collecting the runs between lone surrogates, joined once: about 3x faster than a
// lookbehind regex when much of the text is broken, and just a scan plus two slices in the usual
// case of one cut character at the end.
function removeLoneSurrogates(text: string): string {
	const runs: string[] = [];
	let runStart = 0;
	for (let index = 0; index < text.length; index++) {
		const code = text.charCodeAt(index);
		if (code < 0xd800 || code > 0xdfff) continue;
		if (code <= 0xdbff) {
			const next = index + 1 < text.length ? text.charCodeAt(index + 1) : 0;
			if (next >= 0xdc00 && next <= 0xdfff) {
				index++;
				continue;
			}
		}
		// A high surrogate without its low half, or a low surrogate on its own.
		if (index > runStart) runs.push(text.slice(runStart, index));
		runStart = index + 1;
	}
	runs.push(text.slice(runStart));
	return runs.join("");
}
