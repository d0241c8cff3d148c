// A call to a model its provider has announced to retire still goes out, and says so twice: once per
// process and model on the console, and on every call as a diagnostic on the final message, where a
// program (or a log of messages) can see it without watching the console.
import type { Api, AssistantMessage, AssistantMessageDiagnostic, AssistantMessageEvent, Model } from "../types.js";
import { AssistantMessageEventStream } from "../utils/event-stream.js";

/** The `type` of the diagnostic a call to a deprecated model carries on its final message. */
export const MODEL_DEPRECATED_DIAGNOSTIC = "model_deprecated";

const warnedModels = new Set<string>();

/** The text of the console warning and of the diagnostic's message. */
export function deprecationMessage(model: Model<Api>): string {
	const deprecation = model.deprecated;
	if (!deprecation) return "";
	const replacement = deprecation.replacement ? `; the provider recommends ${deprecation.replacement}` : "";
	return `Model ${model.provider}/${model.id} is deprecated: requests fail from ${deprecation.retiresOn}${replacement} (${deprecation.source})`;
}

/** Writes the console warning the first time a deprecated model is called in this process. */
function warnOnce(model: Model<Api>): void {
	const key = `${model.provider}/${model.id}`;
	if (warnedModels.has(key)) return;
	warnedModels.add(key);
	if (typeof console !== "undefined" && typeof console.warn === "function") console.warn(deprecationMessage(model));
}

/** Forgets which models have warned (for tests). */
export function resetDeprecationWarnings(): void {
	warnedModels.clear();
}

function diagnosticFor(model: Model<Api>): AssistantMessageDiagnostic {
	const { retiresOn, replacement, source } = model.deprecated ?? { retiresOn: "", source: "" };
	const details: Record<string, unknown> = { provider: model.provider, model: model.id, retiresOn, source };
	if (replacement) details.replacement = replacement;
	return {
		type: MODEL_DEPRECATED_DIAGNOSTIC,
		timestamp: Date.now(),
		error: { name: "ModelDeprecated", message: deprecationMessage(model) },
		details,
	};
}

function withDiagnostic(message: AssistantMessage, diagnostic: AssistantMessageDiagnostic): AssistantMessage {
	return { ...message, diagnostics: [...(message.diagnostics ?? []), diagnostic] };
}

/**
 * The provider's stream as it is for a model that is not deprecated. For a deprecated one: warns
 * once, and passes every event through unchanged except the final one, whose message gains the
 * diagnostic. O(1) per event; the stream still ends however the provider's ends.
 */
export function withDeprecationWarning(
	model: Model<Api>,
	events: AssistantMessageEventStream,
): AssistantMessageEventStream {
	if (!model.deprecated) return events;
	warnOnce(model);
	const diagnostic = diagnosticFor(model);
	const output = new AssistantMessageEventStream();
	void (async () => {
		try {
			for await (const event of events) output.push(annotated(event, diagnostic));
		} catch {
			// A provider stream does not throw; should one, end() below settles the result as an error.
		} finally {
			output.end();
		}
	})();
	return output;
}

function annotated(event: AssistantMessageEvent, diagnostic: AssistantMessageDiagnostic): AssistantMessageEvent {
	if (event.type === "done") return { ...event, message: withDiagnostic(event.message, diagnostic) };
	if (event.type === "error") return { ...event, error: withDiagnostic(event.error, diagnostic) };
	return event;
}
