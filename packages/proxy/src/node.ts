// The `@keel/proxy/node` entry: the proxy server for Node's `http.createServer` and Connect/Express
// stacks, and the server time limits for slow clients.
export { DEFAULT_LIMIT_RANGES, type ProxyLimitRange, type ProxyLimitRanges } from "./limit-ranges.js";
export { createProxyHandler, type NodeProxyHandler, proxyServerTimeouts } from "./node-handler.js";
export type { ProxyModelResolver, ProxyServerOptions } from "./proxy-pipeline.js";
