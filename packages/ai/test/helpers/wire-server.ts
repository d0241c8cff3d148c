// One WireTestServer per test file: started before the tests, closed after them, and reset
// (recorded requests and queued responses forgotten) before each test.
import { afterAll, beforeAll, beforeEach } from "vitest";
import { WireTestServer } from "../../src/testing/wire-test-server.js";

export interface WireServerHandle {
	/** The running server; only valid inside tests and hooks. */
	readonly server: WireTestServer;
}

export function useWireTestServer(): WireServerHandle {
	let current: WireTestServer | undefined;
	beforeAll(async () => {
		current = await WireTestServer.start();
	});
	afterAll(async () => {
		await current?.close();
	});
	beforeEach(() => current?.reset());
	return {
		get server(): WireTestServer {
			if (!current) throw new Error("The wire-test server is used outside a test or hook");
			return current;
		},
	};
}
