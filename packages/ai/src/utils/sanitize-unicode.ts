// A lone UTF-16 surrogate (half of a pair, for example from a string cut in the middle of an emoji)
// makes JSON.stringify emit "\ud83d", which several APIs reject with a 400. Providers run outgoing
// text through `sanitizeSurrogates` before encoding a request.

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
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
	return text.replace(LONE_SURROGATE, "");
}
