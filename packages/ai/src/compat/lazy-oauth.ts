// An OAuth method whose flow loads on first use, so a provider definition can offer OAuth without
// importing the (often Node-only) flow code: the import happens on the first login, refresh or toAuth.
import type { OAuthAuth } from "../registry/types.js";

/** How the OAuth option is listed, and how to load the flow that does the work. */
export interface LazyOAuthInput {
	name: string;
	isSubscription?: boolean;
	loginLabel?: string;
	load: () => Promise<OAuthAuth>;
}

/**
 * An `OAuthAuth` that loads its flow once, on the first call that needs it, and shares that load
 * between concurrent calls. A load that fails is forgotten, so the next call tries again.
 */
export function lazyOAuth(input: LazyOAuthInput): OAuthAuth & { isSubscription?: boolean; loginLabel?: string } {
	let loading: Promise<OAuthAuth> | undefined;
	const loaded = (): Promise<OAuthAuth> => {
		if (!loading) {
			loading = input.load();
			loading.catch(() => {
				loading = undefined;
			});
		}
		return loading;
	};
	return {
		name: input.name,
		isSubscription: input.isSubscription,
		loginLabel: input.loginLabel,
		login: async (interaction) => (await loaded()).login(interaction),
		refresh: async (credential, signal) => (await loaded()).refresh(credential, signal),
		toAuth: async (credential) => (await loaded()).toAuth(credential),
	};
}
