// Type-checked (never run) in the consumer project with strict on, under moduleResolution node16
// and node10 (with skipLibCheck off, so every published .d.ts and its imports must resolve and
// check, with no provider SDK installed) and bundler. node10 finds the subpaths through typesVersions.
import { Agent, type AgentEvent, type AgentTool } from "@keel/agent-core";
import { type AssistantMessage, type Context, getModel, type Model, stream, Type } from "@keel/ai";
import { createMemoryCredentialStore, resolveStreamCredentials } from "@keel/ai/credentials";
import { createFileCredentialStore, defaultCredentialsPath } from "@keel/ai/credentials/node";
import { getModel as getAnthropicModel } from "@keel/ai/models/anthropic";
import { fauxAssistantMessage, fauxToolCall, registerFauxProvider } from "@keel/ai/testing";

// Declaration merging reaches the installed package.
declare module "@keel/agent-core" {
	interface CustomAgentMessages {
		note: { role: "note"; text: string; timestamp: number };
	}
}

const parameters = Type.Object({ city: Type.String() });
export const weatherTool: AgentTool<typeof parameters, { city: string }> = {
	name: "get_weather",
	label: "Weather",
	description: "Current weather for a city",
	parameters,
	async execute(_toolCallId, { city }) {
		const upperCity: string = city.toUpperCase();
		return { content: [{ type: "text", text: `${upperCity}: 22 °C` }], details: { city } };
	},
};

// The catalogue's types: a known id is typed by its API, an unknown one is a compile error.
export const claude: Model<"anthropic-messages"> = getModel("anthropic", "claude-haiku-4-5");
// @ts-expect-error an id the catalogue does not have
getModel("anthropic", "no-such-model");

// One provider's entry (built apart from the root entry) gives models the root entry's functions take.
export const haiku: Model<"anthropic-messages"> = getAnthropicModel("claude-haiku-4-5");
// @ts-expect-error an id of another provider
getAnthropicModel("gpt-5.1");
export const streamedFromEntry = () =>
	stream(haiku, { messages: [] })
		.result()
		.then((message: AssistantMessage) => message.stopReason);
export const agentOnEntryModel = new Agent({ initialState: { model: getAnthropicModel("claude-sonnet-4-6") } });

export async function run(): Promise<string> {
	const faux = registerFauxProvider();
	faux.setResponses([fauxAssistantMessage(fauxToolCall("get_weather", { city: "Lisbon" })), "Sunny."]);
	const context: Context = { messages: [{ role: "user", content: "Weather?", timestamp: Date.now() }] };
	const message: AssistantMessage = await stream(faux.getModel(), context).result();

	const agent = new Agent({ initialState: { model: faux.getModel(), tools: [weatherTool] } });
	agent.subscribe((event: AgentEvent) => {
		if (event.type === "message_update" && event.assistantMessageEvent.type === "text_delta") {
			const delta: string = event.assistantMessageEvent.delta;
			void delta;
		}
	});
	agent.state.messages = [
		...agent.state.messages,
		{ role: "note", text: "an application message", timestamp: Date.now() },
	];
	await agent.prompt("What's the weather in Lisbon?");
	return message.stopReason;
}

// Both credential subpaths resolve with their types: a memory store first, then the file store.
export async function openRouterCredentials(): Promise<{ apiKey?: string }> {
	const memory = createMemoryCredentialStore({ openrouter: { type: "api-key", key: "sk-or-example" } });
	const found = await resolveStreamCredentials("openrouter", { store: memory });
	if (found.apiKey) return found;
	return resolveStreamCredentials("openrouter", {
		store: createFileCredentialStore({ path: defaultCredentialsPath() }),
	});
}
