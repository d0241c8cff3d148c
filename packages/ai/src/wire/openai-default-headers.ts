import type { Api, Model } from "../types.js";
import { environmentVariable } from "./environment.js";

/**
 * The headers every OpenAI-style request starts from (Chat Completions, Responses), before the
 * model's and the caller's:
 * - `accept: application/json`, as the official SDKs send it (the body is still an event stream);
 * - `Authorization: Bearer <key>` only when there is a key: Ollama, vLLM and LM Studio need none,
 *   and a placeholder would only end up in their logs;
 * - `OpenAI-Organization` / `OpenAI-Project` from OPENAI_ORG_ID / OPENAI_PROJECT_ID for OpenAI
 *   itself only: another vendor must never receive them.
 * @see https://platform.openai.com/docs/api-reference/authentication
 */
export function openAIDefaultHeaders(model: Model<Api>, apiKey: string | undefined): Record<string, string> {
	const headers: Record<string, string> = { accept: "application/json" };
	if (apiKey) headers.authorization = `Bearer ${apiKey}`;
	if (model.provider === "openai") {
		const organization = environmentVariable("OPENAI_ORG_ID");
		const project = environmentVariable("OPENAI_PROJECT_ID");
		if (organization) headers["openai-organization"] = organization;
		if (project) headers["openai-project"] = project;
	}
	return headers;
}
