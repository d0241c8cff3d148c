import type { AssistantMessageBuilder, StreamDecoder } from "@keel/ai/provider-kit";
import type { OllamaChatChunk } from "./wire-types.js";

/**
 * Ollama's chat stream into the message: `message.thinking` and `message.content` pieces as they
 * come, tool calls whole (Ollama sends each call's arguments as one object), and the line with
 * `done: true` ends it with the stop reason and token counts.
 */
export class OllamaChatDecoder implements StreamDecoder<OllamaChatChunk> {
	private current: { kind: "text" | "thinking"; index: number } | undefined;
	private toolCalls = 0;
	private ended = false;

	constructor(private readonly builder: AssistantMessageBuilder) {}

	get isFinished(): boolean {
		return this.ended;
	}

	decode(chunk: OllamaChatChunk): void {
		const message = chunk.message;
		if (message?.thinking) this.append("thinking", message.thinking);
		if (message?.content) this.append("text", message.content);
		for (const call of message?.tool_calls ?? []) {
			this.close();
			const index = this.builder.startToolCall(`ollama_call_${++this.toolCalls}`, call.function.name);
			this.builder.appendToolCallArguments(index, JSON.stringify(call.function.arguments ?? {}));
			this.builder.endToolCall(index);
		}
		if (!chunk.done) return;
		this.ended = true;
		this.close();
		this.builder.updateUsage({ input: chunk.prompt_eval_count ?? 0, output: chunk.eval_count ?? 0 });
		const reason = chunk.done_reason ?? "stop";
		if (this.toolCalls > 0) this.builder.finish("toolUse", reason);
		else if (reason === "length") this.builder.finish("length", reason);
		else if (reason === "stop") this.builder.finish("stop", reason);
		else this.builder.fail("error", `Ollama stopped the response for an unknown reason: ${reason}`, reason);
	}

	end(): void {
		if (this.ended) return;
		this.ended = true;
		this.builder.fail("error", 'The Ollama stream ended before the response was finished (no "done": true line)');
	}

	private append(kind: "text" | "thinking", delta: string): void {
		if (this.current?.kind !== kind) {
			this.close();
			this.current = { kind, index: kind === "text" ? this.builder.startText() : this.builder.startThinking() };
		}
		if (kind === "text") this.builder.appendText(this.current.index, delta);
		else this.builder.appendThinking(this.current.index, delta);
	}

	private close(): void {
		if (!this.current) return;
		if (this.current.kind === "text") this.builder.endText(this.current.index);
		else this.builder.endThinking(this.current.index);
		this.current = undefined;
	}
}
