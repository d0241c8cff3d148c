// The `@keel/proxy/server` entry: the proxy server for runtimes built on the Fetch API (Deno, Bun,
// Cloudflare Workers, Hono, Next.js route handlers). Platform APIs only; Node's http handler is
// `@keel/proxy/node`.
export { createFetchProxyHandler, type FetchProxyHandler } from "./fetch-handler.js";
export { DEFAULT_LIMIT_RANGES, type ProxyLimitRange, type ProxyLimitRanges } from "./limit-ranges.js";
export type { ProxyModelResolver, ProxyServerOptions } from "./proxy-pipeline.js";
