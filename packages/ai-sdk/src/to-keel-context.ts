import type {
	LanguageModelV3CallOptions,
	LanguageModelV3FilePart,
	LanguageModelV3Prompt,
	LanguageModelV3ToolResultOutput,
	SharedV3Warning,
} from "@ai-sdk/provider";
import { UnsupportedFunctionalityError } from "@ai-sdk/provider";
import {
	type Context,
	documentFormatOf,
	emptyUsage,
	type FileContent,
	isPdfFile,
	isTextFile,
	type Message,
	type Model,
	type TextContent,
	type ThinkingContent,
	type Tool,
	type ToolCall,
	type ToolResultContent,
	type TSchema,
	type UserContent,
} from "@keel/ai";

// Translates the AI SDK's call (LanguageModelV3 prompt and tools) into a Keel Context.
// @see https://ai-sdk.dev/providers/community-providers/custom-providers

/** The key of Keel's entries in `providerOptions` / `providerMetadata`. */
export const KEEL_METADATA_KEY = "keel";

/** Builds the Context for `model` from an AI SDK prompt; the tools are chosen by `selectTools`. */
export function toKeelContext(
	prompt: LanguageModelV3Prompt,
	model: Model,
	tools: Tool[] | undefined,
	now: number = Date.now(),
): Context {
	const systemParts: string[] = [];
	const messages: Message[] = [];
	for (const message of prompt) {
		switch (message.role) {
			case "system":
				// Leading system text is the system prompt; later system text stays where it stands.
				if (messages.length === 0) systemParts.push(message.content);
				else messages.push({ role: "system", content: message.content, timestamp: now });
				break;
			case "user": {
				const content: UserContent[] = [];
				for (const part of message.content) {
					if (part.type === "text") content.push({ type: "text", text: part.text });
					else content.push(toUserContent(part));
				}
				messages.push({ role: "user", content, timestamp: now });
				break;
			}
			case "assistant": {
				const content: (TextContent | ThinkingContent | ToolCall)[] = [];
				for (const part of message.content) {
					if (part.type === "text") content.push({ type: "text", text: part.text });
					else if (part.type === "reasoning") {
						const signature = readKeelString(part.providerOptions, "thinkingSignature");
						content.push(
							signature === undefined
								? { type: "thinking", thinking: part.text }
								: { type: "thinking", thinking: part.text, thinkingSignature: signature },
						);
					} else if (part.type === "tool-call") {
						if (part.providerExecuted) continue; // run by the provider; Keel models have no such tools
						content.push({
							type: "toolCall",
							id: part.toolCallId,
							name: part.toolName,
							arguments: toArguments(part.input),
						});
					} else if (part.type === "file") {
						throw new UnsupportedFunctionalityError({ functionality: "files in assistant messages" });
					}
					// A provider-executed tool result inside an assistant message has no Keel counterpart.
				}
				const hasToolCalls = content.some((block) => block.type === "toolCall");
				messages.push({
					role: "assistant",
					content,
					api: model.api,
					provider: model.provider,
					model: model.id,
					usage: emptyUsage(),
					stopReason: hasToolCalls ? "toolUse" : "stop",
					timestamp: now,
				});
				break;
			}
			case "tool":
				for (const part of message.content) {
					if (part.type !== "tool-result") continue; // approval responses are the AI SDK's own business
					const { content, isError } = toToolResultContent(part.output);
					messages.push({
						role: "toolResult",
						toolCallId: part.toolCallId,
						toolName: part.toolName,
						content,
						isError,
						timestamp: now,
					});
				}
				break;
		}
	}
	const context: Context = { messages };
	if (systemParts.length > 0) context.systemPrompt = systemParts.join("\n\n");
	if (tools !== undefined && tools.length > 0) context.tools = tools;
	return context;
}

/**
 * The function tools of the call, as Keel tools. `toolChoice: none` sends no tools, and a forced
 * tool (`{type: "tool"}`) sends only that tool, which with a "required" choice makes the model call it.
 */
export function toKeelTools(options: LanguageModelV3CallOptions, warnings: SharedV3Warning[]): Tool[] | undefined {
	if (options.tools === undefined || options.toolChoice?.type === "none") return undefined;
	const tools: Tool[] = [];
	for (const tool of options.tools) {
		if (tool.type !== "function") {
			warnings.push({ type: "unsupported", feature: `provider tool ${tool.id}` });
			continue;
		}
		if (options.toolChoice?.type === "tool" && tool.name !== options.toolChoice.toolName) continue;
		// A JSON Schema is what Keel sends for a TypeBox schema, so it serves as one unchanged.
		tools.push({ name: tool.name, description: tool.description ?? "", parameters: tool.inputSchema as TSchema });
	}
	return tools;
}

/** An AI SDK file part as Keel's image, audio or file block (PDFs, office documents and text; see docs/files.md). */
function toUserContent(part: LanguageModelV3FilePart): UserContent {
	const type = part.mediaType.toLowerCase();
	if (type.startsWith("image/")) {
		const mimeType = type === "image/*" ? "image/png" : part.mediaType;
		return { type: "image", data: toBase64(part.data), mimeType };
	}
	if (type.startsWith("audio/")) return { type: "audio", data: toBase64(part.data), mimeType: part.mediaType };
	const file: FileContent = { type: "file", data: toBase64(part.data), mimeType: part.mediaType };
	// @keel/ai's rules for what a file block is: a PDF, an office document or a text file.
	if (isPdfFile(file) || documentFormatOf(file) !== undefined || isTextFile(file)) {
		if (part.filename) file.filename = part.filename;
		return file;
	}
	throw new UnsupportedFunctionalityError({
		functionality: `file parts of type ${part.mediaType} (Keel takes images, audio, PDFs, office documents and text files)`,
	});
}

/** `supportedUrls` is empty, so the AI SDK downloads URLs first: data arrives as bytes or base64. */
function toBase64(data: LanguageModelV3FilePart["data"]): string {
	if (typeof data === "string") return data.startsWith("data:") ? data.slice(data.indexOf(",") + 1) : data;
	if (data instanceof URL) {
		if (data.protocol === "data:") return data.href.slice(data.href.indexOf(",") + 1);
		throw new UnsupportedFunctionalityError({ functionality: "file URLs (pass the file's data)" });
	}
	let binary = "";
	const chunk = 0x8000;
	for (let offset = 0; offset < data.length; offset += chunk) {
		binary += String.fromCharCode(...data.subarray(offset, offset + chunk));
	}
	return btoa(binary);
}

function toArguments(input: unknown): Record<string, unknown> {
	if (typeof input === "string") {
		try {
			return toArguments(JSON.parse(input));
		} catch {
			return {};
		}
	}
	return input !== null && typeof input === "object" && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
}

function toToolResultContent(output: LanguageModelV3ToolResultOutput): {
	content: ToolResultContent[];
	isError: boolean;
} {
	switch (output.type) {
		case "text":
			return { content: [{ type: "text", text: output.value }], isError: false };
		case "json":
			return { content: [{ type: "text", text: JSON.stringify(output.value) }], isError: false };
		case "error-text":
			return { content: [{ type: "text", text: output.value }], isError: true };
		case "error-json":
			return { content: [{ type: "text", text: JSON.stringify(output.value) }], isError: true };
		case "execution-denied":
			return { content: [{ type: "text", text: output.reason ?? "Tool execution denied." }], isError: true };
		case "content":
			return { content: output.value.map(toToolResultBlock), isError: false };
	}
}

type ToolResultPart = Extract<LanguageModelV3ToolResultOutput, { type: "content" }>["value"][number];

/**
 * One part of a tool's content output as a Keel block: text, an image, or a file (a PDF, a document,
 * a text file) by data or URL. Keel's checks before the call decide what the model can read: a
 * tool's file it cannot is replaced by a note, not an error. Keel tool results hold no audio.
 */
function toToolResultBlock(part: ToolResultPart): ToolResultContent {
	if (part.type === "text") return { type: "text", text: part.text };
	if (part.type === "image-data") return { type: "image", data: part.data, mimeType: part.mediaType };
	if (part.type === "file-data" && !part.mediaType.startsWith("audio/")) {
		if (part.mediaType.startsWith("image/")) return { type: "image", data: part.data, mimeType: part.mediaType };
		const file: FileContent = { type: "file", mimeType: part.mediaType, data: toBase64(part.data) };
		return part.filename ? { ...file, filename: part.filename } : file;
	}
	if (part.type === "file-url" && part.mediaType !== undefined && isFileUrlType(part.mediaType)) {
		return { type: "file", mimeType: part.mediaType, url: part.url };
	}
	throw new UnsupportedFunctionalityError({ functionality: `tool result parts of type ${describePart(part)}` });
}

/** A URL Keel carries as a file: not an image (Keel images are bytes) and not audio. */
function isFileUrlType(mediaType: string): boolean {
	return !mediaType.startsWith("image/") && !mediaType.startsWith("audio/");
}

function describePart(part: ToolResultPart): string {
	return "mediaType" in part && part.mediaType ? `${part.type} (${part.mediaType})` : part.type;
}

function readKeelString(options: Record<string, unknown> | undefined, key: string): string | undefined {
	const entry = options?.[KEEL_METADATA_KEY];
	if (entry === null || typeof entry !== "object") return undefined;
	const value = (entry as Record<string, unknown>)[key];
	return typeof value === "string" ? value : undefined;
}
