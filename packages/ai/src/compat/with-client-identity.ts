// Wraps a models object so every call it makes names the calling app: the identity's `User-Agent` and
// attribution headers go under the request's own headers (which win), and an `identity` in the call's
// options is merged over the wrapper's.
import { type ClientIdentity, getIdentityHeaders, mergeClientIdentity } from "./client-identity.js";

const CALLS_WITH_OPTIONS = new Set(["stream", "complete", "streamSimple", "completeSimple"]);

type CallOptions = { headers?: Record<string, string>; identity?: ClientIdentity } | undefined;
type CallModel = { provider: string; baseUrl: string };

/**
 * The same models object, whose `stream`, `complete`, `streamSimple` and `completeSimple` add the
 * identity's headers to each request; every other member is the original's.
 */
export function withClientIdentity<Models extends object>(models: Models, identity: ClientIdentity): Models {
	return new Proxy(models, {
		get(target, property, receiver) {
			const value = Reflect.get(target, property, receiver);
			if (typeof property !== "string" || !CALLS_WITH_OPTIONS.has(property) || typeof value !== "function") {
				return typeof value === "function" ? value.bind(target) : value;
			}
			return (model: CallModel, context: unknown, options?: CallOptions, ...rest: unknown[]) => {
				const merged = mergeClientIdentity(identity, options?.identity);
				const headers = { ...getIdentityHeaders(model, merged), ...options?.headers };
				return value.call(target, model, context, { ...options, identity: merged, headers }, ...rest);
			};
		},
	});
}
