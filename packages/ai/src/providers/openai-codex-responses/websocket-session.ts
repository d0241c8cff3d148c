// The WebSocket transport as one module, the part of the Codex provider that @keel/ai's build for
// browsers and Workers replaces (websocket-session.browser.ts, through package.json "imports"):
// their WebSocket cannot send the Authorization header the endpoint needs. Node, Deno and Bun
// load this module: opening a socket, keeping it per session, and reading a response from it.
// @see https://developers.openai.com/api/reference/resources/responses/websocket-events

export { openCodexWebSocket } from "./websocket-connection.js";
export { closeOpenAICodexWebSockets, keptOpenAICodexWebSocketCount, leaseCodexWebSocket } from "./websocket-pool.js";
export { streamResponseOverWebSocket } from "./websocket-transport.js";
