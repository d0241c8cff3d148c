// The shapes of the instance-based model registry: providers that own their models, their auth and
// their stream functions, gathered in a `Models` collection that holds its own credentials. Nothing
// here is global, so one process can serve many tenants, each with its own collection and keys.
import type { Api, AssistantMessage, Context, Model, SimpleStreamOptions, StreamOptions } from "../types.js";
import type { AssistantMessageEventStream } from "../utils/event-stream.js";

/** What a resolved credential contributes to a request. */
export interface ModelAuth {
	apiKey?: string;
	headers?: Record<string, string>;
	/** Replaces the model's base URL (a tenant's endpoint, a regional host). */
	baseUrl?: string;
}

/** A key stored for a provider; without `key`, the provider's own resolution (an env variable) applies. */
export interface ModelsApiKeyCredential {
	type: "api_key";
	key?: string;
}

/** An OAuth token pair. `expires` is in milliseconds since 1970. Providers may keep more fields. */
export interface ModelsOAuthCredential {
	type: "oauth";
	access: string;
	refresh: string;
	expires: number;
	[extra: string]: unknown;
}

export type ModelsCredential = ModelsApiKeyCredential | ModelsOAuthCredential;

export interface ModelsCredentialInfo {
	providerId: string;
	type: ModelsCredential["type"];
}

export interface AuthOperationOptions {
	signal?: AbortSignal;
}

/**
 * Where a `Models` collection keeps credentials, keyed by provider id. `modify` runs its function
 * with the current credential and stores what it returns (undefined deletes); calls for one provider
 * run one at a time, so two refreshes of one OAuth token never race.
 */
export interface ModelsCredentialStore {
	read(providerId: string, options?: AuthOperationOptions): Promise<ModelsCredential | undefined>;
	list(options?: AuthOperationOptions): Promise<readonly ModelsCredentialInfo[]>;
	modify(
		providerId: string,
		change: (current: ModelsCredential | undefined) => Promise<ModelsCredential | undefined>,
		options?: AuthOperationOptions,
	): Promise<ModelsCredential | undefined>;
	delete(providerId: string, options?: AuthOperationOptions): Promise<void>;
}

/** The ambient facts auth may consult. The default reads `process.env` where there is one. */
export interface AuthContext {
	env(name: string): Promise<string | undefined>;
}

export interface AuthResult {
	auth: ModelAuth;
	/** Where the auth came from, for display ("stored credential", "OPENAI_API_KEY"); never the key. */
	source?: string;
}

export interface AuthCheck {
	type: "api_key" | "oauth";
	source?: string;
}

export type AuthPrompt = { signal?: AbortSignal } & (
	| { type: "text"; message: string; placeholder?: string }
	| { type: "secret"; message: string; placeholder?: string }
);

/** How a login talks to the user. */
export interface AuthInteraction {
	signal?: AbortSignal;
	prompt(prompt: AuthPrompt): Promise<string>;
	notify(event: { type: "info" | "progress"; message: string } | { type: "auth_url"; url: string }): void;
}

export interface ApiKeyAuthInput {
	context: AuthContext;
	credential?: ModelsApiKeyCredential;
	signal: AbortSignal;
}

export interface ApiKeyAuth {
	/** A display name ("OpenAI API key"). */
	name: string;
	login?(interaction: AuthInteraction & { signal: AbortSignal }): Promise<ModelsApiKeyCredential>;
	check?(input: ApiKeyAuthInput): Promise<AuthCheck | undefined>;
	/** Undefined means "not configured": the collection then reports the provider as unavailable. */
	resolve(input: ApiKeyAuthInput): Promise<AuthResult | undefined>;
}

export interface OAuthAuth {
	name: string;
	login(interaction: AuthInteraction & { signal: AbortSignal }): Promise<ModelsOAuthCredential>;
	refresh(credential: ModelsOAuthCredential, signal: AbortSignal): Promise<ModelsOAuthCredential>;
	toAuth(credential: ModelsOAuthCredential): Promise<ModelAuth>;
}

/** Each provider owns its auth: an API key, OAuth, or both. At least one is required. */
export interface ProviderAuth {
	apiKey?: ApiKeyAuth;
	oauth?: OAuthAuth;
}

/** The two entry points of one wire API, as `stream` and `streamSimple` take them. */
export interface ProviderStreams {
	stream(model: Model<Api>, context: Context, options?: StreamOptions): AssistantMessageEventStream;
	streamSimple(model: Model<Api>, context: Context, options?: SimpleStreamOptions): AssistantMessageEventStream;
}

/** A provider: its identity, auth, models, and how to stream them. */
export interface ModelProvider<TApi extends Api = Api> {
	readonly id: string;
	readonly name: string;
	readonly baseUrl?: string;
	readonly headers?: Record<string, string>;
	readonly auth: ProviderAuth;
	getModels(): readonly Model<TApi>[];
	/** Replaces the model list from a live source; absent for providers with a fixed list. */
	refreshModels?(context: RefreshModelsContext): Promise<void>;
	stream(model: Model<TApi>, context: Context, options?: StreamOptions): AssistantMessageEventStream;
	streamSimple(model: Model<TApi>, context: Context, options?: SimpleStreamOptions): AssistantMessageEventStream;
}

export interface ModelsStoreEntry {
	models: readonly Model<Api>[];
	checkedAt?: number;
}

/** Where fetched model lists persist between processes. */
export interface ModelsStore {
	read(providerId: string, options?: AuthOperationOptions): Promise<ModelsStoreEntry | undefined>;
	write(providerId: string, entry: ModelsStoreEntry, options?: AuthOperationOptions): Promise<void>;
	delete(providerId: string, options?: AuthOperationOptions): Promise<void>;
}

export interface RefreshModelsContext {
	credential?: ModelsCredential;
	stored?: Readonly<ModelsStoreEntry>;
	/** Stores the fetched list (null deletes the stored one). */
	persist(entry: ModelsStoreEntry | null): Promise<void>;
	allowNetwork: boolean;
	signal: AbortSignal;
}

export interface ModelsRefreshOptions {
	allowNetwork?: boolean;
	/** Only these provider ids. */
	providers?: readonly string[];
	signal?: AbortSignal;
}

export interface ModelsRefreshResult {
	aborted: boolean;
	errors: ReadonlyMap<string, Error>;
}

/** A collection of providers with its own credentials. Reads are synchronous; auth is asynchronous. */
export interface Models {
	getProviders(): readonly ModelProvider[];
	getProvider(id: string): ModelProvider | undefined;
	getModels(provider?: string): readonly Model<Api>[];
	getModel(provider: string, id: string): Model<Api> | undefined;
	refresh(options?: ModelsRefreshOptions): Promise<ModelsRefreshResult>;
	checkAuth(providerId: string, options?: AuthOperationOptions): Promise<AuthCheck | undefined>;
	/** Models of providers whose auth resolves now. */
	getAvailable(providerId?: string, options?: AuthOperationOptions): Promise<readonly Model<Api>[]>;
	getAuth(providerOrModel: string | Model<Api>, options?: AuthOperationOptions): Promise<AuthResult | undefined>;
	login(
		providerId: string,
		type: "api_key" | "oauth",
		interaction: AuthInteraction,
		options?: AuthOperationOptions,
	): Promise<ModelsCredential>;
	logout(providerId: string, options?: AuthOperationOptions): Promise<void>;
	stream<TApi extends Api>(model: Model<TApi>, context: Context, options?: StreamOptions): AssistantMessageEventStream;
	complete<TApi extends Api>(model: Model<TApi>, context: Context, options?: StreamOptions): Promise<AssistantMessage>;
	streamSimple(model: Model<Api>, context: Context, options?: SimpleStreamOptions): AssistantMessageEventStream;
	completeSimple(model: Model<Api>, context: Context, options?: SimpleStreamOptions): Promise<AssistantMessage>;
}

export interface MutableModels extends Models {
	/** Adds the provider, or replaces the one with its id. */
	setProvider(provider: ModelProvider): void;
	deleteProvider(id: string): void;
	clearProviders(): void;
}

export interface CreateModelsOptions {
	/** Default: a fresh in-memory store, so two collections never share keys. */
	credentials?: ModelsCredentialStore;
	modelsStore?: ModelsStore;
	authContext?: AuthContext;
}
