// Module hooks for the documentation examples: `@keel/ai/anthropic`, `/openai-responses` and
// `/openai-completions` resolve to the real module with its stream functions replaced by the
// registry's stream and streamSimple, where substitute-providers.mjs put the faux provider.
const SHIM = "keel-docs-shim:";
const STREAM_FUNCTIONS = {
	"@keel/ai/anthropic": ["streamAnthropic", "streamSimpleAnthropic"],
	"@keel/ai/openai-responses": ["streamOpenAIResponses", "streamSimpleOpenAIResponses"],
	"@keel/ai/openai-completions": ["streamOpenAICompletions", "streamSimpleOpenAICompletions"],
};

export async function resolve(specifier, context, nextResolve) {
	if (context.parentURL?.startsWith(SHIM)) return nextResolve(specifier, { ...context, parentURL: import.meta.url });
	if (specifier in STREAM_FUNCTIONS) return { url: `${SHIM}${specifier}`, shortCircuit: true };
	return nextResolve(specifier, context);
}

export async function load(url, context, nextLoad) {
	if (!url.startsWith(SHIM)) return nextLoad(url, context);
	const specifier = url.slice(SHIM.length);
	const [full, simple] = STREAM_FUNCTIONS[specifier];
	const source = [
		`export * from ${JSON.stringify(specifier)};`,
		`import { stream, streamSimple } from "@keel/ai";`,
		`export const ${full} = (model, context, options) => stream(model, context, options);`,
		`export const ${simple} = (model, context, options) => streamSimple(model, context, options);`,
	].join("\n");
	return { format: "module", source, shortCircuit: true };
}
