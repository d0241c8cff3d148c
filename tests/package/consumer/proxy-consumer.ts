// Type-checked (never run) with consumer.ts: @keel/proxy's three entries as an application uses
// them, a page's stream function and a Node server, checked against the published declarations.
import { createServer, type IncomingMessage } from "node:http";
import type { StreamFn } from "@keel/agent-core";
import { getModel } from "@keel/ai";
import { type ProxyStreamOptions, streamProxy } from "@keel/proxy";
import { createProxyHandler, type ProxyServerOptions, proxyServerTimeouts } from "@keel/proxy/node";
import { createFetchProxyHandler, type FetchProxyHandler } from "@keel/proxy/server";

const proxyOptions: Pick<ProxyStreamOptions, "proxyUrl" | "authToken"> = {
	proxyUrl: "https://api.example.com",
	authToken: () => Promise.resolve("token"),
};
export const streamFn: StreamFn = (model, context, options) =>
	streamProxy(model, context, { ...options, ...proxyOptions });

const serverOptions: ProxyServerOptions<IncomingMessage> = {
	authenticate: (token) => token === "token",
	models: [getModel("anthropic", "claude-sonnet-4-6")],
	maxInFlightRequestBytes: 32 * 1024 * 1024,
};
const handler = createProxyHandler(serverOptions);
export const server = createServer(proxyServerTimeouts(), (request, response) => handler(request, response));
export const fetchHandler: FetchProxyHandler = createFetchProxyHandler({
	authenticate: (token) => token === "token",
	models: (reference) => reference.provider === "anthropic",
});
