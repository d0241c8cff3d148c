import { failedStream } from "../call/failed-stream.js";
import { sanitizeServerText } from "../call/secret-redaction.js";
import type { Api, AssistantMessage, Context, Model, SimpleStreamOptions, StreamOptions } from "../types.js";
import { formatThrownValue } from "../utils/error-message.js";
import { type AssistantMessageEventStream, createAssistantMessageEventStream } from "../utils/event-stream.js";
import { processEnvAuthContext } from "./env-api-key-auth.js";
import { InMemoryCredentialStore } from "./in-memory-credential-store.js";
import { InMemoryModelsStore } from "./in-memory-models-store.js";
import type {
	AuthCheck,
	AuthOperationOptions,
	AuthResult,
	CreateModelsOptions,
	ModelProvider,
	ModelsCredential,
	ModelsOAuthCredential,
	ModelsRefreshResult,
	MutableModels,
} from "./types.js";

type Entry = "stream" | "streamSimple";

/**
 * A collection of providers with its own credential store. Each collection is independent: a server
 * builds one per tenant and no key crosses from one to another. Streams resolve the provider's auth
 * first (stored credential, then the provider's own fallback such as an env variable) and pass the
 * key per call; a failure to resolve arrives as the stream's error event, never as a throw.
 */
export function createModels(options: CreateModelsOptions = {}): MutableModels {
	const credentials = options.credentials ?? new InMemoryCredentialStore();
	const modelsStore = options.modelsStore ?? new InMemoryModelsStore();
	const authContext = options.authContext ?? processEnvAuthContext;
	const providers = new Map<string, ModelProvider>();

	const signalOf = (operation?: AuthOperationOptions) => operation?.signal ?? new AbortController().signal;

	async function freshOAuth(provider: ModelProvider, credential: ModelsOAuthCredential, signal: AbortSignal) {
		const oauth = provider.auth.oauth;
		if (!oauth) return undefined;
		if (credential.expires > Date.now()) return credential;
		// Refresh inside modify: a second caller waiting on the same provider sees the renewed token.
		const renewed = await credentials.modify(
			provider.id,
			async (current) =>
				current?.type === "oauth" && current.expires <= Date.now() ? oauth.refresh(current, signal) : current,
			{ signal },
		);
		return renewed?.type === "oauth" ? renewed : undefined;
	}

	async function resolveAuth(
		provider: ModelProvider,
		operation?: AuthOperationOptions,
	): Promise<AuthResult | undefined> {
		const signal = signalOf(operation);
		const credential = await credentials.read(provider.id, { signal });
		if (credential?.type === "oauth" && provider.auth.oauth) {
			const fresh = await freshOAuth(provider, credential, signal);
			if (fresh) return { auth: await provider.auth.oauth.toAuth(fresh), source: "oauth" };
		}
		if (!provider.auth.apiKey) return undefined;
		const apiKeyCredential = credential?.type === "api_key" ? credential : undefined;
		return provider.auth.apiKey.resolve({ context: authContext, credential: apiKeyCredential, signal });
	}

	async function checkProviderAuth(
		provider: ModelProvider,
		operation?: AuthOperationOptions,
	): Promise<AuthCheck | undefined> {
		const signal = signalOf(operation);
		const credential = await credentials.read(provider.id, { signal });
		if (credential?.type === "oauth" && provider.auth.oauth) return { type: "oauth", source: "stored credential" };
		const apiKey = provider.auth.apiKey;
		if (!apiKey) return undefined;
		const input = { context: authContext, credential: credential?.type === "api_key" ? credential : undefined, signal };
		if (apiKey.check) return apiKey.check(input);
		const resolved = await apiKey.resolve(input);
		return resolved ? { type: "api_key", source: resolved.source } : undefined;
	}

	function callThrough(
		entry: Entry,
		model: Model<Api>,
		context: Context,
		streamOptions: (StreamOptions & SimpleStreamOptions) | undefined,
	): AssistantMessageEventStream {
		if (model === undefined || model === null || typeof model !== "object") {
			return failedStream({ api: "unknown", provider: "unknown", id: "unknown" }, `${entry}: no model was given`);
		}
		const provider = providers.get(model.provider);
		if (!provider) {
			const known = [...providers.keys()].join(", ") || "none";
			return failedStream(model, `No provider "${model.provider}" in this collection (registered: ${known})`);
		}
		const output = createAssistantMessageEventStream();
		let apiKey: string | undefined = streamOptions?.apiKey;
		void (async () => {
			try {
				let target = model;
				if (apiKey === undefined) {
					const resolved = await resolveAuth(provider, { signal: streamOptions?.signal });
					if (!resolved) {
						const how = provider.auth.apiKey ? `set ${provider.auth.apiKey.name} or log in` : "log in";
						return pipe(failedStream(model, `No credentials for provider "${provider.id}": ${how}`), output);
					}
					apiKey = resolved.auth.apiKey;
					const { baseUrl, headers } = resolved.auth;
					if (baseUrl || headers) {
						target = { ...model, baseUrl: baseUrl ?? model.baseUrl, headers: { ...model.headers, ...headers } };
					}
				}
				const callOptions = apiKey === undefined ? streamOptions : { ...streamOptions, apiKey };
				await pipe(provider[entry](target, context, callOptions), output);
			} catch (error) {
				const message = sanitizeServerText(formatThrownValue(error), apiKey);
				await pipe(failedStream(model, message, streamOptions?.signal?.aborted ? "aborted" : "error"), output);
			}
		})();
		return output;
	}

	const models: MutableModels = {
		getProviders: () => [...providers.values()],
		getProvider: (id) => providers.get(id),
		getModels(providerId) {
			if (providerId !== undefined) return [...(providers.get(providerId)?.getModels() ?? [])];
			return [...providers.values()].flatMap((provider) => provider.getModels());
		},
		getModel: (providerId, id) =>
			providers
				.get(providerId)
				?.getModels()
				.find((model) => model.id === id),
		async refresh(refreshOptions = {}): Promise<ModelsRefreshResult> {
			const signal = signalOf(refreshOptions);
			const errors = new Map<string, Error>();
			const selected = [...providers.values()].filter(
				(provider) =>
					provider.refreshModels && (!refreshOptions.providers || refreshOptions.providers.includes(provider.id)),
			);
			for (const provider of selected) {
				if (signal.aborted) break;
				try {
					const stored = await modelsStore.read(provider.id, { signal });
					const credential = await credentials.read(provider.id, { signal });
					await provider.refreshModels?.({
						credential,
						stored,
						allowNetwork: refreshOptions.allowNetwork ?? true,
						signal,
						persist: (entry) =>
							entry === null
								? modelsStore.delete(provider.id, { signal })
								: modelsStore.write(provider.id, entry, { signal }),
					});
				} catch (error) {
					errors.set(provider.id, error instanceof Error ? error : new Error(formatThrownValue(error)));
				}
			}
			return { aborted: signal.aborted, errors };
		},
		async checkAuth(providerId, operation) {
			const provider = providers.get(providerId);
			return provider ? checkProviderAuth(provider, operation) : undefined;
		},
		async getAvailable(providerId, operation) {
			const candidates = providerId === undefined ? [...providers.values()] : [providers.get(providerId)];
			const available: Model<Api>[] = [];
			for (const provider of candidates) {
				if (provider && (await checkProviderAuth(provider, operation))) available.push(...provider.getModels());
			}
			return available;
		},
		async getAuth(providerOrModel, operation) {
			const id = typeof providerOrModel === "string" ? providerOrModel : providerOrModel?.provider;
			const provider = providers.get(id);
			return provider ? resolveAuth(provider, operation) : undefined;
		},
		async login(providerId, type, interaction, operation) {
			const provider = providers.get(providerId);
			if (!provider) throw new Error(`login: no provider "${providerId}" in this collection`);
			const method = type === "oauth" ? provider.auth.oauth : provider.auth.apiKey;
			if (!method?.login) throw new Error(`login: provider "${providerId}" has no ${type} login`);
			const signal = interaction.signal ?? signalOf(operation);
			const credential: ModelsCredential = await method.login({ ...interaction, signal });
			await credentials.modify(providerId, async () => credential, { signal });
			return credential;
		},
		async logout(providerId, operation) {
			await credentials.delete(providerId, operation);
		},
		stream: (model, context, streamOptions) => callThrough("stream", model, context, streamOptions),
		streamSimple: (model, context, streamOptions) => callThrough("streamSimple", model, context, streamOptions),
		complete: (model, context, streamOptions): Promise<AssistantMessage> =>
			callThrough("stream", model, context, streamOptions).result(),
		completeSimple: (model, context, streamOptions): Promise<AssistantMessage> =>
			callThrough("streamSimple", model, context, streamOptions).result(),
		setProvider(provider) {
			if (typeof provider?.id !== "string" || typeof provider.getModels !== "function") {
				throw new Error("setProvider: expected a provider from createProvider()");
			}
			providers.set(provider.id, provider);
		},
		deleteProvider: (id) => void providers.delete(id),
		clearProviders: () => providers.clear(),
	};
	return models;
}

/** Forwards every event of `source` into `target`, then ends `target`. */
async function pipe(source: AssistantMessageEventStream, target: AssistantMessageEventStream): Promise<void> {
	for await (const event of source) target.push(event);
	target.end();
}
