// Preloaded (node --import) into each documentation example the tests run. It puts the faux
// provider of @keel/ai/testing behind every built-in API, so an example written for a real model
// (getModel("anthropic", …)) runs offline, and blocks every request to a host other than 127.0.0.1.
// KEEL_DOCS_OUTCOME picks what every call does: "success" answers (text, or a valid object where a
// JSON answer is asked for), "failure" ends every call with FAILURE_TEXT, as a rejected key would.
import { writeFileSync } from "node:fs";
import { register } from "node:module";
import { getApiProvider, getApiProviders, LOCAL_SERVER_URLS, registerApiProvider, toJsonSchema } from "@keel/ai";
import { fauxAssistantMessage, fauxToolCall, registerFauxProvider } from "@keel/ai/testing";

export const FAILURE_TEXT = "401 invalid x-api-key (documentation test: every call fails)";
const outcome = process.env.KEEL_DOCS_OUTCOME === "failure" ? "failure" : "success";

// A model pointed at a server the example started itself (a WireTestServer on a free port of
// 127.0.0.1) keeps its real provider; every other model is answered by the faux provider.
const wellKnownLocalServers = new Set(Object.values(LOCAL_SERVER_URLS).map((url) => new URL(url).host));
const startedByTheExample = (model) => {
	try {
		const url = new URL(model.baseUrl);
		return url.hostname === "127.0.0.1" && !wellKnownLocalServers.has(url.host);
	} catch {
		return false;
	}
};

for (const { api } of getApiProviders()) {
	if (api === "faux") continue;
	const real = getApiProvider(api);
	const faux = registerFauxProvider({ api: `documentation-${api}` });
	faux.setResponses(Array.from({ length: 1000 }, () => respond));
	const fake = getApiProvider(`documentation-${api}`);
	const asFake = (model) => ({ ...model, api: `documentation-${api}` });
	registerApiProvider({
		api,
		stream: (model, context, options) =>
			startedByTheExample(model) ? real.stream(model, context, options) : fake.stream(asFake(model), context, options),
		streamSimple: (model, context, options) =>
			startedByTheExample(model)
				? real.streamSimple(model, context, options)
				: fake.streamSimple(asFake(model), context, options),
	});
}

// How many calls the example made, for the test to know whether its failure path was taken.
let calls = 0;
process.on("exit", () => {
	if (process.env.KEEL_DOCS_CALLS_FILE) writeFileSync(process.env.KEEL_DOCS_CALLS_FILE, String(calls));
});

/** One answer to whatever was asked. */
function respond(context, options) {
	calls++;
	if (outcome === "failure") return fauxAssistantMessage([], { stopReason: "error", errorMessage: FAILURE_TEXT });
	if (options?.responseFormat) return JSON.stringify(sampleOf(options.responseFormat.schema));
	const forced = options?.toolChoice?.name ?? options?.toolChoice?.tool;
	const asked = context.systemPrompt?.match(/Answer by calling the tool "([^"]+)"/)?.[1];
	const toolName = forced ?? asked;
	const tool = context.tools?.find((candidate) => candidate.name === toolName);
	// toJsonSchema: a Zod, Valibot or ArkType tool's JSON Schema, as the real providers send it.
	if (tool) return fauxAssistantMessage([fauxToolCall(tool.name, sampleOf(toJsonSchema(tool.parameters)))]);
	return "The documentation test's answer.";
}

/** A value that satisfies a JSON schema of the usual shapes (TypeBox objects, arrays, literals). */
function sampleOf(schema) {
	if (!schema || typeof schema !== "object") return null;
	if ("const" in schema) return schema.const;
	if (Array.isArray(schema.enum)) return schema.enum[0];
	if (Array.isArray(schema.anyOf)) return sampleOf(schema.anyOf[0]);
	switch (schema.type) {
		case "object": {
			const value = {};
			for (const [key, property] of Object.entries(schema.properties ?? {})) value[key] = sampleOf(property);
			return value;
		}
		case "array":
			return schema.minItems ? Array.from({ length: schema.minItems }, () => sampleOf(schema.items)) : [];
		case "string":
			return "example";
		case "number":
		case "integer":
			return schema.minimum ?? 1;
		case "boolean":
			return true;
		default:
			return null;
	}
}

// No example reaches the internet: a request to any other host is refused as a server would.
const realFetch = globalThis.fetch;
globalThis.fetch = async (input, init) => {
	const url = new URL(typeof input === "string" || input instanceof URL ? input : input.url);
	if (url.hostname === "127.0.0.1" || url.hostname === "localhost") return realFetch(input, init);
	return new Response(JSON.stringify({ error: { message: `documentation test: no network (${url.host})` } }), {
		status: 401,
		headers: { "content-type": "application/json" },
	});
};

// The provider subpaths' own stream functions go through the registry too.
register("./provider-subpaths.mjs", import.meta.url);
