// A PDF's page count from its bytes, cheaply and without a PDF parser, for the providers' page
// limits (input-limits.ts). Each page of a PDF is a dictionary with `/Type /Page` (ISO 32000-1,
// 7.7.3.3 "Page Objects"); counting those, once per object number, gives the pages written out
// in the file. Pages kept inside compressed object streams (PDF 1.5+) are not visible this way,
// so the count is a lower bound: a limit checked against it never refuses a PDF the API would
// take, but may let through one it refuses (the API's own error then says so).
import { base64ToBinaryString } from "./file-content.js";

// A PDF name ends at whitespace or a delimiter (ISO 32000-1, 7.2.2): `/Page` must not match `/Pages`.
const NAME_END = "(?![^\\s()<>\\[\\]{}/%])";
// An object header `12 0 obj`, or a page's type entry; one pass over the file sees both in order.
const OBJECT_OR_PAGE = new RegExp(`(\\d+)\\s+\\d+\\s+obj${NAME_END}|/Type\\s*/Page${NAME_END}`, "g");

/** Counts the page objects of a PDF given as a binary string (one character per byte). */
export function countPdfPagesInBinary(binary: string): number {
	const pages = new Set<string>();
	let object = "";
	let loose = 0;
	for (const match of binary.matchAll(OBJECT_OR_PAGE)) {
		if (match[1] !== undefined) {
			object = match[1];
		} else {
			// An incremental update rewrites a changed page under the same object number: one page.
			pages.add(object === "" ? `loose ${loose++}` : object);
		}
	}
	return pages.size;
}

/** Counts the pages of a PDF given as base64 (see the note above: a lower bound). */
export function countPdfPages(base64: string): number {
	return countPdfPagesInBinary(base64ToBinaryString(base64));
}
