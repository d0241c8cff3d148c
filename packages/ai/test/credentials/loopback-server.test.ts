import { describe, expect, it } from "vitest";
import { startLoopbackServer } from "../../src/credentials/node/index.js";

describe("the loopback redirect server", () => {
	it("listens on 127.0.0.1 at a free port and hands over the first callback's query", async () => {
		const server = await startLoopbackServer({ expectedState: "state-1" });
		expect(server.redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
		const other = await fetch(new URL("/favicon.ico", server.redirectUri));
		expect(other.status).toBe(404);
		const page = await fetch(`${server.redirectUri}?code=abc&state=state-1`);
		expect(page.status).toBe(200);
		expect(await page.text()).toContain("You can close this window");
		const query = await server.waitForCallback();
		expect(Object.fromEntries(query)).toEqual({ code: "abc", state: "state-1" });
		// Closed once the callback has arrived: nothing listens on the port any more.
		await expect(fetch(server.redirectUri)).rejects.toThrow();
	});

	it("gives up after its timeout with an OAuthError", async () => {
		const server = await startLoopbackServer({ timeoutMs: 50 });
		await expect(server.waitForCallback()).rejects.toMatchObject({
			name: "OAuthError",
			code: "timeout",
			message: "No login redirect arrived within 50 ms",
		});
	});

	it("rejects the wait when closed before a callback", async () => {
		const server = await startLoopbackServer();
		const waiting = server.waitForCallback();
		await server.close();
		await expect(waiting).rejects.toMatchObject({ code: "aborted" });
	});
});
