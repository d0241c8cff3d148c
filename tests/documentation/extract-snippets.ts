// Finds the TypeScript code blocks of a Markdown file, with the markers that say how to compile and
// run them.
//
// A block is compiled as a whole module, and run as a program (run-snippets.test.ts). HTML comments
// (invisible on GitHub) may sit right before its fence, blank lines allowed in between:
//   <!-- snippet-prelude: declare const toolCall: ToolCall; -->
//       code put before the block, for a fragment that uses names the text around it introduces
//       (the prelude may span several lines; several preludes add up);
//   <!-- snippet-run-prelude: const toolCall = { … }; -->
//       the code put before the block when it runs, instead of the prelude: values for the names the
//       prelude only declares;
//   <!-- not-compiled: why -->
//       the block is shown but not compiled (for code that cannot be, say why);
//   <!-- not-run: why -->
//       the block is compiled but not run (a program that needs what a test cannot give: say what).
import { readFileSync } from "node:fs";

export interface Snippet {
	/** The Markdown file, relative to the repository root, with forward slashes. */
	file: string;
	/** The 1-based line of the opening fence; 0 for a whole file (its code starts at line 1). */
	line: number;
	/** The block's code, its indentation (inside a list item) removed. */
	code: string;
	/** Hidden code put before the block; "" when there is none. */
	prelude: string;
	/** Why the block is not compiled, when it is marked so. */
	notCompiled?: string;
	/** Code put before the block when it runs, instead of the prelude. */
	runPrelude?: string;
	/** Why the block is not run, when it is marked so. */
	notRun?: string;
}

const OPENING_FENCE = /^(\s*)(`{3,}|~{3,})\s*(ts|typescript)\s*$/;
const ANY_OPENING_FENCE = /^(\s*)(`{3,}|~{3,})/;
const MARKER = /<!--\s*(snippet-prelude|snippet-run-prelude|not-compiled|not-run):([\s\S]*?)-->/g;

export function extractSnippetsFromFile(absolutePath: string, file: string): Snippet[] {
	return extractSnippets(readFileSync(absolutePath, "utf8"), file);
}

/** A whole TypeScript file (an example program) as one snippet. */
export function wholeFileSnippet(absolutePath: string, file: string): Snippet {
	return { file, line: 0, code: readFileSync(absolutePath, "utf8"), prelude: "" };
}

export function extractSnippets(markdown: string, file: string): Snippet[] {
	const lines = markdown.split(/\r?\n/);
	const snippets: Snippet[] = [];
	let index = 0;
	while (index < lines.length) {
		const opening = ANY_OPENING_FENCE.exec(lines[index]);
		if (!opening) {
			index++;
			continue;
		}
		const [, indentation, fence] = opening;
		const closing = findClosingFence(lines, index + 1, fence);
		const typescript = OPENING_FENCE.exec(lines[index]);
		if (typescript) {
			const body = lines.slice(index + 1, closing).map((line) => removeIndentation(line, indentation));
			const markers = readMarkersBefore(lines, index, file);
			snippets.push({ file, line: index + 1, code: body.join("\n"), ...markers });
		}
		index = closing + 1;
	}
	return snippets;
}

function findClosingFence(lines: string[], start: number, fence: string): number {
	for (let index = start; index < lines.length; index++) {
		const trimmed = lines[index].trim();
		if (trimmed.startsWith(fence[0].repeat(fence.length)) && trimmed.replaceAll(fence[0], "") === "") return index;
	}
	return lines.length;
}

function removeIndentation(line: string, indentation: string): string {
	return line.startsWith(indentation) ? line.slice(indentation.length) : line.trimStart();
}

/** The markers in the HTML comments just above the fence (only blank lines and comments in between). */
function readMarkersBefore(
	lines: string[],
	fenceIndex: number,
	file: string,
): Pick<Snippet, "prelude" | "notCompiled" | "runPrelude" | "notRun"> {
	let start = fenceIndex;
	let insideComment = false;
	for (let index = fenceIndex - 1; index >= 0; index--) {
		const trimmed = lines[index].trim();
		if (insideComment) {
			if (trimmed.startsWith("<!--")) insideComment = false;
			start = index;
			continue;
		}
		if (trimmed === "") continue;
		if (trimmed.endsWith("-->")) {
			insideComment = !trimmed.startsWith("<!--");
			start = index;
			continue;
		}
		break;
	}
	const comments = lines.slice(start, fenceIndex).join("\n");
	const preludes: string[] = [];
	const runPreludes: string[] = [];
	let notCompiled: string | undefined;
	let notRun: string | undefined;
	for (const [, kind, text] of comments.matchAll(MARKER)) {
		if (kind === "snippet-prelude") preludes.push(text.trim());
		else if (kind === "snippet-run-prelude") runPreludes.push(text.trim());
		else if (kind === "not-run") notRun = text.trim();
		else notCompiled = text.trim();
	}
	if (notCompiled === "") throw new Error(`${file}:${fenceIndex + 1}: "not-compiled" needs a reason`);
	if (notRun === "") throw new Error(`${file}:${fenceIndex + 1}: "not-run" needs a reason`);
	return {
		prelude: preludes.join("\n"),
		...(notCompiled === undefined ? {} : { notCompiled }),
		...(runPreludes.length === 0 ? {} : { runPrelude: runPreludes.join("\n") }),
		...(notRun === undefined ? {} : { notRun }),
	};
}
