// Ollama's native chat API as it is on the wire: the request body of POST /api/chat and one line of
// its newline-delimited JSON stream.
// @see https://docs.ollama.com/api/chat
// @see https://docs.ollama.com/api/streaming

export interface OllamaMessage {
	role: "system" | "user" | "assistant" | "tool";
	content: string;
	thinking?: string;
	tool_calls?: { function: { name: string; arguments: Record<string, unknown> } }[];
	tool_name?: string;
}

export interface OllamaChatRequest {
	model: string;
	messages: OllamaMessage[];
	stream: true;
	tools?: { type: "function"; function: { name: string; description: string; parameters: unknown } }[];
	think?: boolean;
	options?: { temperature?: number; num_predict?: number };
}

/** One line: a piece of the message, or (`done: true`) the last one with the stop reason and counts. */
export interface OllamaChatChunk {
	model?: string;
	message?: Partial<OllamaMessage>;
	done?: boolean;
	done_reason?: string;
	prompt_eval_count?: number;
	eval_count?: number;
	/** An error after the stream began (Ollama then ends the stream). */
	error?: string;
}
