// A provider for fallback tests: each call plays the next scripted outcome through the real harness
// (createProviderStream + AssistantMessageBuilder), so events, usage and cost are the real ones.
import { registerApiProvider, unregisterApiProviders } from "../../src/api-registry.js";
import { createProviderStream } from "../../src/call/provider-stream.js";
import type { Api, Context, Model, StreamOptions } from "../../src/types.js";
import { testModel } from "../helpers/models.js";

export type ScriptedOutcome =
	| { kind: "answer"; text: string }
	/** Fails before any content; `rawStopReason` marks a refusal. */
	| { kind: "fail"; message: string; rawStopReason?: string }
	/** Streams `text`, then fails. */
	| { kind: "fail-after-content"; text: string; message: string }
	/** Waits until the call's signal aborts; `onWaiting` runs when the wait begins. */
	| { kind: "wait-for-abort"; onWaiting?: () => void };

export interface ScriptedRequest {
	model: Model<Api>;
	context: Context;
	options: (StreamOptions & Record<string, unknown>) | undefined;
}

export interface ScriptedApi {
	model(overrides?: Partial<Model<Api>>): Model<Api>;
	requests: ScriptedRequest[];
	unregister(): void;
}

/** 1000 input tokens per call at $2 per million: every attempt costs $0.002. */
export const INPUT_TOKENS_PER_CALL = 1000;

export function registerScriptedApi(api: string, outcomes: ScriptedOutcome[]): ScriptedApi {
	const requests: ScriptedRequest[] = [];
	const stream = (model: Model<Api>, context: Context, options?: StreamOptions) => {
		requests.push({ model, context, options: options as ScriptedRequest["options"] });
		const outcome = outcomes.shift();
		return createProviderStream(
			model,
			options,
			async ({ builder, signal }) => {
				builder.updateUsage({ input: INPUT_TOKENS_PER_CALL, output: 0, cacheRead: 0, cacheWrite: 0 });
				if (!outcome) {
					builder.fail("error", `No scripted outcome left for ${api}`);
					return;
				}
				if (outcome.kind === "answer") {
					const index = builder.startText();
					builder.appendText(index, outcome.text);
					builder.endText(index);
					builder.updateUsage({ output: 5 });
					builder.finish("stop");
				} else if (outcome.kind === "fail") {
					builder.fail("error", outcome.message, outcome.rawStopReason);
				} else if (outcome.kind === "fail-after-content") {
					const index = builder.startText();
					builder.appendText(index, outcome.text);
					builder.fail("error", outcome.message);
				} else {
					await new Promise<void>((resolve) => {
						signal.addEventListener("abort", () => resolve(), { once: true });
						outcome.onWaiting?.();
					});
				}
			},
			{ requiresApiKey: false },
		);
	};
	const source = `scripted:${api}`;
	registerApiProvider({ api, stream, streamSimple: stream }, source);
	return {
		model: (overrides = {}) =>
			testModel(
				{ api, id: `${api}-model`, name: api, provider: `${api}-provider`, baseUrl: "http://127.0.0.1:1" },
				overrides,
			),
		requests,
		unregister: () => unregisterApiProviders(source),
	};
}
