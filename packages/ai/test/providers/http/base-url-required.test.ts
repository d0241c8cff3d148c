// A model without a usable base URL (a misspelled `baseURL`, a relative path, another scheme) ends
// with one clear error naming the model and the field, on every HTTP API, and nothing is sent:
// no API falls back to a public endpoint with the caller's key.
import { afterEach, describe, expect, it, vi } from "vitest";
import { streamAnthropic } from "../../../src/providers/anthropic/index.js";
import { streamAzureOpenAIResponses } from "../../../src/providers/azure-openai-responses/index.js";
import { streamOpenAICompletions } from "../../../src/providers/openai-completions/index.js";
import { streamOpenAIResponses } from "../../../src/providers/openai-responses/index.js";
import type { Api, Model } from "../../../src/types.js";
import type { AssistantMessageEventStream } from "../../../src/utils/event-stream.js";
import { userMessage } from "../../helpers/messages.js";
import { claudeModel } from "../anthropic/fixtures.js";
import { completionsModel } from "../openai-completions/fixtures.js";
import { azureModel, responsesModel } from "../openai-responses/fixtures.js";
import { TEST_KEY } from "./api-cases.js";

const context = { messages: [userMessage("Hi")] };

type Streamer = (baseUrl: Record<string, unknown>) => AssistantMessageEventStream;

/** Each API with a model whose base URL fields are the given ones (baseUrl itself removed first). */
const APIS: [name: string, stream: Streamer][] = [
	[
		"anthropic-messages",
		(fields) => streamAnthropic(withBaseUrl(claudeModel(), fields), context, { apiKey: TEST_KEY }),
	],
	[
		"openai-completions",
		(fields) => streamOpenAICompletions(withBaseUrl(completionsModel(), fields), context, { apiKey: TEST_KEY }),
	],
	[
		"openai-responses",
		(fields) => streamOpenAIResponses(withBaseUrl(responsesModel(), fields), context, { apiKey: TEST_KEY }),
	],
	[
		"azure-openai-responses",
		(fields) =>
			streamAzureOpenAIResponses(withBaseUrl(azureModel(), fields), context, {
				apiKey: TEST_KEY,
				// Azure also takes its endpoint from options and the environment; here only the model has one.
				azureBaseUrl: undefined,
				azureResourceName: undefined,
			}),
	],
];

function withBaseUrl<TApi extends Api>(model: Model<TApi>, fields: Record<string, unknown>): Model<TApi> {
	const { baseUrl: _removed, ...rest } = model;
	return { ...rest, ...fields } as Model<TApi>;
}

afterEach(() => {
	vi.unstubAllEnvs();
	vi.restoreAllMocks();
});

describe.each(APIS)("%s without a usable base URL", (name, stream) => {
	it.each([
		[
			"a misspelled baseURL",
			{ baseURL: "http://127.0.0.1:9/v1" },
			'has no baseUrl (it has "baseURL": the field is spelled baseUrl): set it to the API\'s absolute http(s) URL',
		],
		["a relative path", { baseUrl: "/v1" }, 'has an invalid baseUrl "/v1": expected an absolute URL'],
		[
			"another scheme",
			{ baseUrl: "file:///etc/v1" },
			'has an invalid baseUrl "file:///etc/v1": expected an http or https URL',
		],
	])("%s: one clear error, nothing sent", async (_case, fields, expected) => {
		vi.stubEnv("AZURE_OPENAI_BASE_URL", "");
		vi.stubEnv("AZURE_OPENAI_RESOURCE_NAME", "");
		const fetchSpy = vi.spyOn(globalThis, "fetch");
		const result = await stream(fields).result();
		expect(result.stopReason).toBe("error");
		if (name === "azure-openai-responses" && !("baseUrl" in fields)) {
			// Azure's endpoint may also come from options or the environment: its error lists every way.
			expect(result.errorMessage).toMatch(/^No Azure OpenAI endpoint for model "gpt-test": set AZURE_OPENAI_BASE_URL/);
		} else {
			const field = name === "azure-openai-responses" ? "Azure base URL" : "baseUrl";
			expect(result.errorMessage).toMatch(/^Model "[^"]+" /);
			expect(result.errorMessage).toContain(expected.replace("baseUrl", field));
		}
		expect(fetchSpy).not.toHaveBeenCalled();
	});
});
