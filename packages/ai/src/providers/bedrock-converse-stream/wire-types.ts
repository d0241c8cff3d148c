// The JSON shapes of Converse's REST wire format, as far as Keel sends and reads them. Blobs (image
// bytes, redacted reasoning) travel as base64 strings in this JSON.
// @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html
// @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStreamOutput.html

/** A free-form JSON value (tool input, tool schemas, model-specific fields). */
export type DocumentType = null | boolean | number | string | DocumentType[] | { [key: string]: DocumentType };

/** @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_CachePointBlock.html */
export interface CachePointBlock {
	type: "default";
	ttl?: "5m" | "1h";
}

/** @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ImageBlock.html */
export interface ImageBlock {
	format: "jpeg" | "png" | "gif" | "webp";
	/** The image's bytes, base64. */
	source: { bytes: string };
}

/** @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_DocumentBlock.html */
export type DocumentFormat = "pdf" | "csv" | "doc" | "docx" | "xls" | "xlsx" | "html" | "txt" | "md";

/** @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_DocumentBlock.html */
export interface DocumentBlock {
	format: DocumentFormat;
	/** Alphanumerics, single spaces, hyphens, parentheses and square brackets only; unique in a message. */
	name: string;
	/** The document's bytes, base64. */
	source: { bytes: string };
}

/** @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ToolResultContentBlock.html */
export type ToolResultContentBlock =
	| { text: string }
	| { image: ImageBlock }
	| { document: DocumentBlock }
	| { json: DocumentType };

/** @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ContentBlock.html */
export type ContentBlock =
	| { text: string }
	| { image: ImageBlock }
	| { document: DocumentBlock }
	| { cachePoint: CachePointBlock }
	| { toolUse: { toolUseId: string; name: string; input: DocumentType } }
	| {
			toolResult: {
				toolUseId: string;
				content: ToolResultContentBlock[];
				status?: "success" | "error";
			};
	  }
	| {
			reasoningContent:
				| { reasoningText: { text: string; signature?: string } }
				/** Encrypted reasoning, base64. */
				| { redactedContent: string };
	  };

export interface BedrockMessage {
	role: "user" | "assistant";
	content: ContentBlock[];
}

export type SystemContentBlock = { text: string } | { cachePoint: CachePointBlock };

/** @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Tool.html */
export interface BedrockTool {
	toolSpec: { name: string; description?: string; inputSchema: { json: DocumentType } };
}

export type ToolChoice = { auto: Record<string, never> } | { any: Record<string, never> } | { tool: { name: string } };

/**
 * A ConverseStream request. `modelId` goes into the path (`/model/{modelId}/converse-stream`), the
 * other fields into the JSON body.
 */
export interface ConverseStreamRequest {
	modelId: string;
	messages: BedrockMessage[];
	system?: SystemContentBlock[];
	inferenceConfig?: { maxTokens?: number; temperature?: number; topP?: number; stopSequences?: string[] };
	toolConfig?: { tools: BedrockTool[]; toolChoice?: ToolChoice };
	additionalModelRequestFields?: DocumentType;
	requestMetadata?: Record<string, string>;
}

/** @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_TokenUsage.html */
export interface TokenUsage {
	inputTokens?: number;
	outputTokens?: number;
	totalTokens?: number;
	cacheReadInputTokens?: number;
	cacheWriteInputTokens?: number;
}

export interface ContentBlockStartEvent {
	contentBlockIndex?: number;
	start?: { toolUse?: { toolUseId?: string; name?: string } };
}

export interface ContentBlockDeltaEvent {
	contentBlockIndex?: number;
	delta?: {
		text?: string;
		toolUse?: { input?: string };
		reasoningContent?: { text?: string; signature?: string; redactedContent?: string | Uint8Array };
	};
}

/** One event of the stream, keyed by its event type (`{contentBlockDelta: {…}}`). */
export interface ConverseStreamEvent {
	messageStart?: { role?: string };
	contentBlockStart?: ContentBlockStartEvent;
	contentBlockDelta?: ContentBlockDeltaEvent;
	contentBlockStop?: { contentBlockIndex?: number };
	messageStop?: { stopReason?: string; additionalModelResponseFields?: DocumentType };
	metadata?: { usage?: TokenUsage; metrics?: { latencyMs?: number } };
	internalServerException?: { message?: string };
	modelStreamErrorException?: { message?: string };
	validationException?: { message?: string };
	throttlingException?: { message?: string };
	serviceUnavailableException?: { message?: string };
}
