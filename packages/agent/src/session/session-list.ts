// What every store's list() shares: checking the options, the order (newest first, then by id), the
// keyset page, and what a search compares. Stores that keep their sessions in a database do the
// same in SQL; these functions are the reference they follow (the conformance suite holds them to it).

import { getAgentMessageText } from "./message-content.js";
import type { ParsedSessionRecord } from "./record-format.js";
import type { SessionInfo, SessionListOptions, SessionMessageRecord } from "./session-types.js";

/** Throws a TypeError naming the option when `options` cannot describe a page. */
export function assertValidListOptions(options: SessionListOptions | undefined): void {
	if (options === undefined) return;
	const { limit, after, search } = options;
	if (limit !== undefined && (!Number.isInteger(limit) || limit <= 0)) {
		throw new TypeError(`list({ limit }) must be a positive integer, got ${String(limit)}.`);
	}
	if (
		after !== undefined &&
		(typeof after !== "object" ||
			after === null ||
			typeof after.sessionId !== "string" ||
			typeof after.updatedAt !== "number" ||
			!Number.isFinite(after.updatedAt))
	) {
		throw new TypeError(
			"list({ after }) must be the last SessionInfo of the previous page (a sessionId string and an updatedAt number).",
		);
	}
	if (search !== undefined && typeof search !== "string") {
		throw new TypeError(`list({ search }) must be a string, got ${typeof search}.`);
	}
}

/** The list's order: newest `updatedAt` first, then `sessionId` ascending so equal times page stably. */
export function compareSessionInfos(
	a: Pick<SessionInfo, "updatedAt" | "sessionId">,
	b: Pick<SessionInfo, "updatedAt" | "sessionId">,
): number {
	if (a.updatedAt !== b.updatedAt) return b.updatedAt - a.updatedAt;
	return a.sessionId < b.sessionId ? -1 : a.sessionId > b.sessionId ? 1 : 0;
}

/** Sorts, then keeps the page the options ask for. `infos` must already be filtered by `search`. */
export function pageSessionInfos(infos: SessionInfo[], options: SessionListOptions | undefined): SessionInfo[] {
	infos.sort(compareSessionInfos);
	let start = 0;
	const after = options?.after;
	if (after) {
		while (start < infos.length && compareSessionInfos(infos[start], after) <= 0) start++;
	}
	const end = options?.limit === undefined ? infos.length : start + options.limit;
	return infos.slice(start, end);
}

/**
 * Lower-cases ASCII letters only. Search compares text folded this way in every store, so a
 * database whose `lower()` depends on its locale (PostgreSQL) or knows only ASCII (SQLite) gives
 * the same answers as the in-memory store: stores fold the text when they write it.
 */
export function foldForSearch(text: string): string {
	return text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

/**
 * The text a search looks at in one record: a message's readable text; "" for other records (the
 * session's current title is matched on its own, so an old name does not find a renamed session).
 */
export function searchableText(record: ParsedSessionRecord): string {
	if (record.type !== "message") return "";
	try {
		return getAgentMessageText((record as SessionMessageRecord).message, "\n");
	} catch {
		return ""; // An application's own kind with an unexpected shape has no text to search.
	}
}

/** Whether a session with this title and these records matches `search` (already folded). */
export function titleMatches(title: string | undefined, foldedSearch: string): boolean {
	return title !== undefined && foldForSearch(title).includes(foldedSearch);
}
