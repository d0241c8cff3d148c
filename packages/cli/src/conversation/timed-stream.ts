// The stream function a CLI conversation gives its Agent: streamSimple with the command line's
// credentials and model options, and the time each answer took stored on the final message
// (`durationMs`, an extra field the session keeps as written) so `keel logs` can show it.
import {
	type Api,
	type AssistantMessage,
	type AssistantMessageEventStream,
	type Context,
	createAssistantMessageEventStream,
	type Model,
	type SimpleStreamOptions,
	streamSimple,
} from "@keel/ai";
import type { CallCredentials } from "../api-key.js";

/** Model options from the command line (-o, --max-tokens) sent with every call. */
export interface CallOptions {
	maxTokens?: number;
	temperature?: number;
	/** `-o top_p 0.9` and the other sampling keys the model takes, sent as @keel/ai's samplingParams. */
	samplingParams?: Record<string, number>;
}

export type TimedAssistantMessage = AssistantMessage & { durationMs?: number };

export function createTimedStreamFunction(
	current: () => { credentials: CallCredentials; callOptions: CallOptions },
): (model: Model<Api>, context: Context, options?: SimpleStreamOptions) => AssistantMessageEventStream {
	return (model, context, options) => {
		const { credentials, callOptions } = current();
		const started = performance.now();
		const source = streamSimple(model, context, { ...options, ...callOptions, ...credentials });
		const timed = createAssistantMessageEventStream();
		void (async () => {
			for await (const event of source) {
				if (event.type === "done") {
					(event.message as TimedAssistantMessage).durationMs = Math.round(performance.now() - started);
				} else if (event.type === "error") {
					(event.error as TimedAssistantMessage).durationMs = Math.round(performance.now() - started);
				}
				timed.push(event);
			}
			timed.end();
		})();
		return timed;
	};
}
