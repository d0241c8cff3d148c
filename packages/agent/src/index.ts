// The public surface of @keel/agent-core.
export type { AgentMessage, CustomAgentMessages } from "./types.js";

// --- proxy: streamProxy for browsers, and the server handlers that hold the keys (owner: proxy) ---
export { type ProxyStreamOptions, streamProxy } from "./proxy/client.js";
export {
	filterForwardableHeaders,
	isForwardableHeader,
	PROXY_STREAM_PATH,
	type ProxyAssistantMessageEvent,
	type ProxyForwardedOptions,
	type ProxyMessageSummary,
	type ProxyStreamRequest,
	pickForwardedOptions,
	toProxyEvent,
} from "./proxy/protocol.js";
export {
	createFetchProxyHandler,
	createProxyHandler,
	type FetchProxyHandler,
	type NodeProxyHandler,
	type ProxyModelResolver,
	type ProxyServerOptions,
} from "./proxy/server.js";
