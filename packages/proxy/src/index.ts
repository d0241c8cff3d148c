// The public surface of @keel/proxy's root: what a browser (or any client) needs to call a proxy —
// `streamProxy`, the wire protocol's types and the header rules both sides apply. It loads no
// server code and nothing from Node; the handlers are `@keel/proxy/server` (fetch runtimes) and
// `@keel/proxy/node` (Node's http).
export { type ProxyStreamOptions, streamProxy } from "./client.js";
export { DEFAULT_LIMIT_RANGES, type ProxyLimitRange, type ProxyLimitRanges } from "./limit-ranges.js";
export {
	filterBetaHeaders,
	filterForwardableHeaders,
	isBetaHeader,
	isForwardableHeader,
	PROXY_STREAM_PATH,
	type ProxyAssistantMessageEvent,
	type ProxyForwardedOptions,
	type ProxyMessageSummary,
	type ProxyStreamRequest,
	pickForwardedOptions,
	toProxyEvent,
} from "./protocol.js";
