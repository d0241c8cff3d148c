// Vertex AI can stream one function call's arguments in pieces (`streamFunctionCallArguments`):
// each piece is a `partialArg` naming the argument by a JSON path (RFC 9535, e.g. `$.items[0].name`)
// with a typed value, and a string value may come in several pieces (`willContinue`). Keel's
// tool-call deltas are JSON text, so this writer turns the pieces into the text of the arguments
// object, written left to right: concatenated, its outputs are the JSON of the whole arguments.
// Work per piece is proportional to the piece and its path.
// @see https://cloud.google.com/vertex-ai/generative-ai/docs/reference/rest/v1/Content#PartialArg
// @see https://cloud.google.com/vertex-ai/generative-ai/docs/reference/rest/v1/Tool#FunctionCallingConfig

/** One streamed piece of a function call's arguments, as Vertex AI sends it. */
export interface GeminiPartialArg {
	jsonPath?: string;
	stringValue?: string;
	numberValue?: number;
	boolValue?: boolean;
	nullValue?: string;
	/** True when more pieces of the same path's string follow. */
	willContinue?: boolean;
}

type Segment = string | number;

interface Container {
	kind: "object" | "array";
	hasMembers: boolean;
}

/** A JSON path's segments after `$`: object keys as strings, array indexes as numbers. */
export function parseJsonPath(path: string): Segment[] {
	if (!path.startsWith("$")) throw new Error(`a jsonPath must start with "$", got ${JSON.stringify(path)}`);
	const segments: Segment[] = [];
	let position = 1;
	while (position < path.length) {
		const character = path[position];
		if (character === ".") {
			let end = position + 1;
			while (end < path.length && path[end] !== "." && path[end] !== "[") end++;
			if (end === position + 1) throw new Error(`empty name in jsonPath ${JSON.stringify(path)}`);
			segments.push(path.slice(position + 1, end));
			position = end;
		} else if (character === "[") {
			const quote = path[position + 1];
			if (quote === "'" || quote === '"') {
				let name = "";
				let index = position + 2;
				while (index < path.length && path[index] !== quote) {
					if (path[index] === "\\" && index + 1 < path.length) index++;
					name += path[index];
					index++;
				}
				if (path[index + 1] !== "]") throw new Error(`unclosed name in jsonPath ${JSON.stringify(path)}`);
				segments.push(name);
				position = index + 2;
			} else {
				const close = path.indexOf("]", position);
				const digits = close === -1 ? "" : path.slice(position + 1, close);
				if (!/^\d+$/.test(digits)) throw new Error(`bad index in jsonPath ${JSON.stringify(path)}`);
				segments.push(Number(digits));
				position = close + 1;
			}
		} else {
			throw new Error(`unexpected ${JSON.stringify(character)} in jsonPath ${JSON.stringify(path)}`);
		}
	}
	return segments;
}

/** The JSON text of a string piece without its quotes. */
function escapePiece(piece: string): string {
	return JSON.stringify(piece).slice(1, -1);
}

function hasValue(arg: GeminiPartialArg): boolean {
	return (
		arg.stringValue !== undefined ||
		arg.numberValue !== undefined ||
		arg.boolValue !== undefined ||
		arg.nullValue !== undefined
	);
}

/** Writes one function call's streamed arguments as JSON text, piece by piece. */
export class PartialArgumentsWriter {
	/** The segments leading to each open container below the root object. */
	private readonly openPath: Segment[] = [];
	/** The open containers, the root object first. */
	private readonly containers: Container[] = [];
	/** The path of a string value whose closing quote is still to come. */
	private openString: string | undefined;

	/** The JSON text this piece adds. Throws an Error naming the problem for a malformed path. */
	write(arg: GeminiPartialArg): string {
		let text = this.containers.length === 0 ? this.openRoot() : "";
		const path = arg.jsonPath;
		if (typeof path !== "string") throw new Error("a partialArg without a jsonPath");
		if (this.openString !== undefined) {
			if (this.openString === path && (typeof arg.stringValue === "string" || !hasValue(arg))) {
				text += escapePiece(arg.stringValue ?? "");
				if (!arg.willContinue) {
					text += '"';
					this.openString = undefined;
				}
				return text;
			}
			text += '"';
			this.openString = undefined;
		}
		if (!hasValue(arg)) return text;
		const segments = parseJsonPath(path);
		const leaf = segments.pop();
		if (leaf === undefined) throw new Error(`a partialArg for the whole arguments object ("$")`);
		let common = 0;
		while (common < this.openPath.length && common < segments.length && this.openPath[common] === segments[common]) {
			common++;
		}
		while (this.openPath.length > common) text += this.closeContainer();
		for (let depth = common; depth < segments.length; depth++) {
			const next = depth + 1 < segments.length ? segments[depth + 1] : leaf;
			text += this.memberPrefix(segments[depth]);
			const kind = typeof next === "number" ? "array" : "object";
			text += kind === "array" ? "[" : "{";
			this.openPath.push(segments[depth]);
			this.containers.push({ kind, hasMembers: false });
		}
		text += this.memberPrefix(leaf);
		if (typeof arg.stringValue === "string") {
			text += `"${escapePiece(arg.stringValue)}`;
			if (arg.willContinue) this.openString = path;
			else text += '"';
		} else if (arg.numberValue !== undefined) {
			text +=
				typeof arg.numberValue === "number" && Number.isFinite(arg.numberValue) ? String(arg.numberValue) : "null";
		} else if (arg.boolValue !== undefined) {
			text += arg.boolValue === true ? "true" : "false";
		} else {
			text += "null";
		}
		return text;
	}

	/** The text that closes what is still open: an unfinished string, nested containers, the object. */
	finish(): string {
		let text = this.containers.length === 0 ? this.openRoot() : "";
		if (this.openString !== undefined) {
			text += '"';
			this.openString = undefined;
		}
		while (this.openPath.length > 0) text += this.closeContainer();
		this.containers.pop();
		return `${text}}`;
	}

	private openRoot(): string {
		this.containers.push({ kind: "object", hasMembers: false });
		return "{";
	}

	private closeContainer(): string {
		this.openPath.pop();
		return this.containers.pop()?.kind === "array" ? "]" : "}";
	}

	/** A comma before every member but the first, and the key inside an object. */
	private memberPrefix(segment: Segment): string {
		const container = this.containers[this.containers.length - 1];
		const comma = container.hasMembers ? "," : "";
		container.hasMembers = true;
		return container.kind === "object" ? `${comma}${JSON.stringify(String(segment))}:` : comma;
	}
}
