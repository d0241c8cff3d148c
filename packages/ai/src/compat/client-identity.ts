// How a program names itself to the services it calls: the `User-Agent` it sends and the attribution
// headers aggregators read to credit the calling app. OpenRouter's app attribution:
// https://openrouter.ai/docs/app-attribution ; NVIDIA NIM billing origin and OpenCode's client header
// are read by those hosts from the header names below.

/** How the `User-Agent` reads: a detailed product/runtime string, a short product name, or your own text. */
export type ClientUserAgent = "detailed" | "short" | { custom: string };

/** The calling app, credited by aggregators that read attribution headers. */
export interface ClientAttribution {
	name: string;
	url: string;
	categories?: string[];
}

/** Who is calling: the `User-Agent` style, the attribution (none when absent), and the version to report. */
export interface ClientIdentity {
	userAgent?: ClientUserAgent;
	attribution?: ClientAttribution;
	version?: string;
}

/** Where a request goes: the model's provider id and base URL. */
export interface ClientIdentityTarget {
	provider: string;
	baseUrl: string;
}

/**
 * The version `getClientVersion` reports when the identity names none: @keel/ai's package version
 * (a constant, so that browsers and Workers need no JSON import; a test checks it against package.json).
 */
const KEEL_AI_VERSION = "0.1.0";
const PRODUCT = "keel";
const NVIDIA_NIM_HOST = "integrate.api.nvidia.com";
const OPENCODE_HOST = "opencode.ai";

/** Merges identities field by field: later sources win, and fields left undefined are skipped. */
export function mergeClientIdentity(...sources: (ClientIdentity | undefined)[]): ClientIdentity | undefined {
	let merged: ClientIdentity | undefined;
	for (const source of sources) {
		if (!source) continue;
		merged = { ...merged };
		if (source.userAgent !== undefined) merged.userAgent = source.userAgent;
		if (source.attribution !== undefined) merged.attribution = source.attribution;
		if (source.version !== undefined) merged.version = source.version;
	}
	return merged;
}

/** The version shown in the detailed `User-Agent`: the identity's own, else @keel/ai's. */
export function getClientVersion(identity?: ClientIdentity): string {
	return identity?.version ?? KEEL_AI_VERSION;
}

/** `bun/<v>` or `node/v<v>` on a server runtime; undefined in browsers and Workers (no `process`). */
function runtimeDescription(): string | undefined {
	const runtime = (globalThis as { process?: { versions?: Record<string, string | undefined>; version?: string } })
		.process;
	if (!runtime?.versions) return undefined;
	if (runtime.versions.bun) return `bun/${runtime.versions.bun}`;
	if (runtime.versions.node) return `node/${runtime.version}`;
	return undefined;
}

/** The `User-Agent` of an identity: `keel/<version> (<platform>; <runtime>; <arch>)` by default. */
export function formatUserAgent(identity?: ClientIdentity): string {
	const style = identity?.userAgent ?? "detailed";
	if (typeof style === "object") return style.custom;
	if (style === "short") return PRODUCT;
	const product = `${PRODUCT}/${getClientVersion(identity)}`;
	const runtime = runtimeDescription();
	if (!runtime) return `${product} (browser)`;
	const host = (globalThis as { process?: { platform?: string; arch?: string } }).process;
	return `${product} (${host?.platform}; ${runtime}; ${host?.arch})`;
}

function hasHost(baseUrl: string, host: string): boolean {
	try {
		return new URL(baseUrl).hostname === host;
	} catch {
		return false;
	}
}

/** The attribution headers the target's host reads; empty when the identity has no attribution or the host reads none. */
export function getAttributionHeaders(target: ClientIdentityTarget, identity?: ClientIdentity): Record<string, string> {
	const attribution = identity?.attribution;
	if (!attribution) return {};
	const { name, url, categories } = attribution;
	if (target.provider === "openrouter" || target.baseUrl.includes("openrouter.ai")) {
		return {
			"HTTP-Referer": url,
			"X-OpenRouter-Title": name,
			...(categories && categories.length > 0 ? { "X-OpenRouter-Categories": categories.join(",") } : {}),
		};
	}
	// NVIDIA's billing origin is a capitalised app name.
	if (target.provider === "nvidia" || hasHost(target.baseUrl, NVIDIA_NIM_HOST)) {
		return { "X-BILLING-INVOKE-ORIGIN": name.charAt(0).toUpperCase() + name.slice(1) };
	}
	if (target.provider === "opencode" || target.provider === "opencode-go" || hasHost(target.baseUrl, OPENCODE_HOST)) {
		return { "x-opencode-client": name };
	}
	return {};
}

/** The headers an identity adds to a request: `User-Agent` plus the target's attribution headers. */
export function getIdentityHeaders(target: ClientIdentityTarget, identity?: ClientIdentity): Record<string, string> {
	return { "User-Agent": formatUserAgent(identity), ...getAttributionHeaders(target, identity) };
}
