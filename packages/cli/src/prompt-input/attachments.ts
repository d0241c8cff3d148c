// `-a`: files sent with the prompt as @keel/ai content blocks: images, PDFs, text files and audio.
// A local path, `-` for stdin, or (only with --allow-urls) an http(s) URL. The type comes from the
// first bytes (magic numbers), then the extension, then whether the bytes read as UTF-8 text; each
// attachment is checked against the model's input flags before anything is sent.
import { readFileSync, statSync } from "node:fs";
import { basename, extname } from "node:path";
import { Readable } from "node:stream";
import { type Api, contentBlockProblem, type Model, type UserContent } from "@keel/ai";
import { UsageError } from "../command.js";
import type { InputStream } from "../terminal.js";

/** The largest attachment read: providers refuse images much larger than this anyway. */
export const MAX_ATTACHMENT_BYTES = 20 * 1024 * 1024;

const SUPPORTED = "PNG, JPEG, GIF or WebP images, PDFs, text files, or WAV, MP3, FLAC, OGG or M4A audio";

/** The image type from the first bytes, or undefined. */
export function imageMimeType(bytes: Uint8Array): string | undefined {
	const starts = (...prefix: number[]) => prefix.every((byte, index) => bytes[index] === byte);
	if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "image/png";
	if (starts(0xff, 0xd8, 0xff)) return "image/jpeg";
	if (starts(0x47, 0x49, 0x46, 0x38)) return "image/gif";
	if (starts(0x52, 0x49, 0x46, 0x46) && String.fromCharCode(...bytes.slice(8, 12)) === "WEBP") return "image/webp";
	return undefined;
}

/** PDF and audio types from the first bytes, or undefined. */
function documentOrAudioMimeType(bytes: Uint8Array): string | undefined {
	const text = (start: number, end: number) => String.fromCharCode(...bytes.slice(start, end));
	if (text(0, 5) === "%PDF-") return "application/pdf";
	if (text(0, 4) === "RIFF" && text(8, 12) === "WAVE") return "audio/wav";
	if (text(0, 3) === "ID3" || (bytes[0] === 0xff && (bytes[1] & 0xe0) === 0xe0 && bytes.length > 2))
		return "audio/mpeg";
	if (text(0, 4) === "fLaC") return "audio/flac";
	if (text(0, 4) === "OggS") return "audio/ogg";
	if (text(4, 8) === "ftyp" && text(8, 11) === "M4A") return "audio/mp4";
	return undefined;
}

/** Text types by extension; anything else that reads as UTF-8 goes as text/plain. */
const TEXT_EXTENSIONS: Record<string, string> = {
	".md": "text/markdown",
	".markdown": "text/markdown",
	".csv": "text/csv",
	".html": "text/html",
	".htm": "text/html",
	".json": "application/json",
	".xml": "application/xml",
	".yaml": "application/yaml",
	".yml": "application/yaml",
};

/** True when the bytes are UTF-8 without NUL bytes: a text file, whatever its extension. */
function isUtf8Text(bytes: Uint8Array): boolean {
	if (bytes.includes(0)) return false;
	try {
		new TextDecoder("utf-8", { fatal: true }).decode(bytes);
		return true;
	} catch {
		return false;
	}
}

/** The content block for an attachment's bytes, or undefined when Keel has none for them. */
export function attachmentBlock(bytes: Uint8Array, name: string): UserContent | undefined {
	const data = Buffer.from(bytes).toString("base64");
	const image = imageMimeType(bytes);
	if (image) return { type: "image", data, mimeType: image };
	const binary = documentOrAudioMimeType(bytes);
	if (binary?.startsWith("audio/")) return { type: "audio", data, mimeType: binary };
	if (binary) return { type: "file", data, mimeType: binary, filename: name };
	if (bytes.length > 0 && isUtf8Text(bytes)) {
		return {
			type: "file",
			data,
			mimeType: TEXT_EXTENSIONS[extname(name).toLowerCase()] ?? "text/plain",
			filename: name,
		};
	}
	return undefined;
}

/** The name the model sees: the file's base name, the last part of a URL's path, or "stdin". */
function attachmentName(spec: string): string {
	if (spec === "-") return "stdin";
	if (!/^https?:\/\//i.test(spec)) return basename(spec);
	try {
		return decodeURIComponent(basename(new URL(spec).pathname)) || "attachment";
	} catch {
		return "attachment";
	}
}

/** What `keel models` shows for each kind, for the advice to pick another model. */
const KIND_NAMES: Record<string, string> = { image: "images", file: "PDFs", audio: "audio" };

export interface AttachmentSources {
	stdin: InputStream;
	allowUrls: boolean;
}

export async function readAttachments(
	commandName: string,
	model: Model<Api>,
	specs: string[],
	sources: AttachmentSources,
): Promise<UserContent[]> {
	const blocks: UserContent[] = [];
	for (const spec of specs) {
		const bytes = await readAttachment(commandName, spec, sources);
		if (bytes.length > MAX_ATTACHMENT_BYTES) {
			throw new UsageError(
				`attachment ${spec} is ${formatMegabytes(bytes.length)}: the limit is ${formatMegabytes(MAX_ATTACHMENT_BYTES)}; make it smaller`,
				commandName,
			);
		}
		const name = attachmentName(spec);
		const block = attachmentBlock(bytes, name);
		if (block === undefined) {
			throw new UsageError(`attachment ${spec} is not a file Keel can send: -a takes ${SUPPORTED}`, commandName);
		}
		if (block.type === "image" && !model.input.includes("image")) {
			throw new UsageError(
				`${model.provider}/${model.id} does not accept images: choose a model with images "yes" in \`keel models\``,
				commandName,
			);
		}
		const problem = contentBlockProblem(block, model);
		if (problem) {
			throw new UsageError(
				`attachment ${spec}: ${problem} (\`keel models --wide\` shows which models take ${KIND_NAMES[block.type] ?? "it"})`,
				commandName,
			);
		}
		blocks.push(block);
	}
	return blocks;
}

async function readAttachment(commandName: string, spec: string, sources: AttachmentSources): Promise<Uint8Array> {
	if (spec === "-") {
		if (sources.stdin.isTTY === true)
			throw new UsageError("-a - reads the attachment from stdin: pipe it in", commandName);
		return readBytes(sources.stdin);
	}
	if (/^https?:\/\//i.test(spec)) {
		if (!sources.allowUrls) {
			throw new UsageError(
				`-a ${spec} is a URL: download it first, or pass --allow-urls to let keel fetch it`,
				commandName,
			);
		}
		const response = await fetch(spec);
		if (!response.ok) throw new Error(`could not download ${spec}: HTTP ${response.status}`);
		const length = Number(response.headers.get("content-length") ?? 0);
		if (length > MAX_ATTACHMENT_BYTES) {
			throw new UsageError(
				`attachment ${spec} is ${formatMegabytes(length)}: the limit is ${formatMegabytes(MAX_ATTACHMENT_BYTES)}`,
				commandName,
			);
		}
		if (!response.body) return new Uint8Array();
		// Read up to one byte past the limit, so a server that sends no length cannot fill the memory.
		return readBytes(Readable.fromWeb(response.body as never) as unknown as InputStream);
	}
	let size: number;
	try {
		const stat = statSync(spec);
		if (!stat.isFile()) throw new UsageError(`attachment ${spec} is not a file`, commandName);
		size = stat.size;
	} catch (error) {
		if (error instanceof UsageError) throw error;
		throw new UsageError(`attachment ${spec} does not exist: check the path (a URL needs --allow-urls)`, commandName);
	}
	if (size > MAX_ATTACHMENT_BYTES) {
		throw new UsageError(
			`attachment ${spec} is ${formatMegabytes(size)}: the limit is ${formatMegabytes(MAX_ATTACHMENT_BYTES)}; make it smaller`,
			commandName,
		);
	}
	return new Uint8Array(readFileSync(spec));
}

async function readBytes(input: InputStream): Promise<Uint8Array> {
	const chunks: Uint8Array[] = [];
	let total = 0;
	for await (const chunk of input as AsyncIterable<Uint8Array | string>) {
		const bytes = typeof chunk === "string" ? new TextEncoder().encode(chunk) : chunk;
		chunks.push(bytes);
		total += bytes.length;
		// Stop reading a stream that is already too big; the size check reports it.
		if (total > MAX_ATTACHMENT_BYTES) break;
	}
	return Buffer.concat(chunks);
}

function formatMegabytes(bytes: number): string {
	return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
}
