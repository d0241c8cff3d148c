import { afterEach, beforeEach, vi } from "vitest";
import {
	type BedrockAnswer,
	type BedrockTestServer,
	type ReceivedRequest,
	startBedrockServer,
} from "./bedrock-test-server.js";
import { TEST_ACCESS_KEY_ID, TEST_SECRET_ACCESS_KEY } from "./fixtures.js";

/**
 * Per test: SigV4 credentials in the environment (the SDK's first provider), no bearer token, and a
 * server started with `wire.start(answer)`, closed after the test.
 */
export function useBedrockServer(): {
	start(answer: (request: ReceivedRequest, index: number) => BedrockAnswer): Promise<BedrockTestServer>;
} {
	let server: BedrockTestServer | undefined;
	beforeEach(() => {
		vi.stubEnv("AWS_ACCESS_KEY_ID", TEST_ACCESS_KEY_ID);
		vi.stubEnv("AWS_SECRET_ACCESS_KEY", TEST_SECRET_ACCESS_KEY);
		vi.stubEnv("AWS_REGION", "eu-west-1");
		vi.stubEnv("AWS_BEARER_TOKEN_BEDROCK", "");
		vi.stubEnv("AWS_PROFILE", "");
	});
	afterEach(async () => {
		vi.unstubAllEnvs();
		await server?.close();
		server = undefined;
	});
	return {
		async start(answer) {
			server = await startBedrockServer(answer);
			return server;
		},
	};
}
