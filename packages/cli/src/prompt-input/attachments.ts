// `-a`: images sent with the prompt as @keel/ai image content blocks. A local path, `-` for stdin,
// or (only with --allow-urls) an http(s) URL. Keel's messages carry text and images; other files
// (PDF, audio, …) have no content block yet and are refused by name.
import { readFileSync, statSync } from "node:fs";
import { Readable } from "node:stream";
import type { Api, ImageContent, Model } from "@keel/ai";
import { UsageError } from "../command.js";
import type { InputStream } from "../terminal.js";

/** The largest attachment read: providers refuse images much larger than this anyway. */
export const MAX_ATTACHMENT_BYTES = 20 * 1024 * 1024;

const SUPPORTED = "PNG, JPEG, GIF or WebP images";

/** The image type from the first bytes, or undefined. */
export function imageMimeType(bytes: Uint8Array): string | undefined {
	const starts = (...prefix: number[]) => prefix.every((byte, index) => bytes[index] === byte);
	if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "image/png";
	if (starts(0xff, 0xd8, 0xff)) return "image/jpeg";
	if (starts(0x47, 0x49, 0x46, 0x38)) return "image/gif";
	if (starts(0x52, 0x49, 0x46, 0x46) && String.fromCharCode(...bytes.slice(8, 12)) === "WEBP") return "image/webp";
	return undefined;
}

export interface AttachmentSources {
	stdin: InputStream;
	allowUrls: boolean;
}

export async function readAttachments(
	commandName: string,
	model: Model<Api>,
	specs: string[],
	sources: AttachmentSources,
): Promise<ImageContent[]> {
	if (specs.length === 0) return [];
	if (!model.input.includes("image")) {
		throw new UsageError(
			`${model.provider}/${model.id} does not accept images: choose a model with images "yes" in \`keel models\``,
			commandName,
		);
	}
	const images: ImageContent[] = [];
	for (const spec of specs) {
		const bytes = await readAttachment(commandName, spec, sources);
		if (bytes.length > MAX_ATTACHMENT_BYTES) {
			throw new UsageError(
				`attachment ${spec} is ${formatMegabytes(bytes.length)}: the limit is ${formatMegabytes(MAX_ATTACHMENT_BYTES)}; make it smaller`,
				commandName,
			);
		}
		const mimeType = imageMimeType(bytes);
		if (mimeType === undefined) {
			throw new UsageError(
				`attachment ${spec} is not an image Keel can send: -a takes ${SUPPORTED} (other files have no content block yet; pipe text on stdin instead)`,
				commandName,
			);
		}
		images.push({ type: "image", data: Buffer.from(bytes).toString("base64"), mimeType });
	}
	return images;
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
