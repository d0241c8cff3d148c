/**
 * `{baseUrl}/codex/responses`. A base URL that already ends in `/codex` or `/codex/responses` (copied
 * from elsewhere) is completed rather than doubled; trailing slashes are removed.
 */
export function codexResponsesUrl(baseUrl: string): string {
	const trimmed = baseUrl.replace(/\/+$/, "");
	if (trimmed.endsWith("/codex/responses")) return trimmed;
	if (trimmed.endsWith("/codex")) return `${trimmed}/responses`;
	return `${trimmed}/codex/responses`;
}

/** The same endpoint for a WebSocket: `https:` → `wss:`, `http:` → `ws:`. */
export function webSocketUrl(httpUrl: string): string {
	return httpUrl.replace(/^http(s?):/i, (_match, secure: string) => `ws${secure}:`);
}
