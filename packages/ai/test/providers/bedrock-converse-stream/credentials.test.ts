import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { streamBedrock } from "../../../src/providers/bedrock-converse-stream/index.js";
import { userMessage } from "../../helpers/messages.js";
import { textFrames } from "./bedrock-test-server.js";
import { bedrockModel } from "./fixtures.js";
import { useBedrockServer } from "./server-setup.js";

const wire = useBedrockServer();
const context = { messages: [userMessage("Hi")] };
const CONTAINER_KEY_ID = "ASIACONTAINERROLE000";

/** A container credentials endpoint (ECS, EKS Pod Identity) on 127.0.0.1, counting its requests. */
async function startCredentialsEndpoint(): Promise<{ url: string; requests: () => number; close(): Promise<void> }> {
	let requests = 0;
	const server = createServer((_request, response) => {
		requests++;
		response.writeHead(200, { "content-type": "application/json" });
		response.end(
			JSON.stringify({
				AccessKeyId: CONTAINER_KEY_ID,
				SecretAccessKey: "container-role-secret",
				Token: "container-role-session-token",
				Expiration: new Date(Date.now() + 3600_000).toISOString(),
			}),
		);
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/credentials`,
		requests: () => requests,
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

let endpoint: Awaited<ReturnType<typeof startCredentialsEndpoint>> | undefined;
afterEach(async () => {
	await endpoint?.close();
	endpoint = undefined;
});

describe("Bedrock credentials from the SDK's chain", () => {
	it("signs with a container role's credentials, fetched once for two calls with the same settings", async () => {
		endpoint = await startCredentialsEndpoint();
		vi.stubEnv("AWS_ACCESS_KEY_ID", "");
		vi.stubEnv("AWS_SECRET_ACCESS_KEY", "");
		vi.stubEnv("AWS_CONTAINER_CREDENTIALS_FULL_URI", endpoint.url);
		const server = await wire.start(() => ({ frames: textFrames("ok") }));
		const model = bedrockModel({ baseUrl: server.url });
		const first = await streamBedrock(model, context, { region: "us-west-2" }).result();
		const second = await streamBedrock(model, context, { region: "us-west-2" }).result();
		expect([first.stopReason, second.stopReason]).toEqual(["stop", "stop"]);
		expect(server.requests[1].headers.authorization).toContain(`Credential=${CONTAINER_KEY_ID}/`);
		expect(server.requests[1].headers["x-amz-security-token"]).toBe("container-role-session-token");
		expect(endpoint.requests()).toBe(1);
	});
});
