// URLs as errors show them. A key is sometimes put in a URL (`https://user:key@host`,
// `…/token?key=…`), and an error that quotes its URL would carry the key into logs and UIs, so
// every error naming a configured URL (the model refresh sources, the OAuth endpoints) shows it
// through here: scheme, host and path only.

/** A URL without its query string, fragment and user info, where keys are sometimes put. */
export function urlForMessages(url: string): string {
	try {
		const parsed = new URL(url);
		parsed.search = "";
		parsed.hash = "";
		parsed.username = "";
		parsed.password = "";
		return parsed.toString();
	} catch {
		return url.split(/[?#]/, 1)[0].replace(/\/\/[^/@]*@/, "//");
	}
}

/**
 * `text` (an error from fetch, which quotes the URL in some of its messages) with the URL, as given
 * and as the URL parser spells it, shown as `urlForMessages` shows it.
 */
export function withUrlForMessages(text: string, url: string): string {
	const shown = urlForMessages(url);
	let result = text.split(url).join(shown);
	try {
		const normalised = new URL(url).href;
		if (normalised !== url) result = result.split(normalised).join(shown);
	} catch {
		// Not a URL: only the spelling as given can appear.
	}
	return result;
}

/** The user name, password and query values of a URL: text to redact wherever else it appears. */
export function credentialsInUrl(url: string): string[] {
	try {
		const parsed = new URL(url);
		const values = [parsed.username, parsed.password, decodeURIComponent(parsed.password)];
		for (const value of parsed.searchParams.values()) values.push(value);
		return values.filter((value) => value !== "");
	} catch {
		return [];
	}
}
