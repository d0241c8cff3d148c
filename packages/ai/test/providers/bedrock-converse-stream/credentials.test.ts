import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { streamBedrock } from "../../../src/providers/bedrock-converse-stream/index.js";
import { userMessage } from "../../helpers/messages.js";
import { textFrames } from "./bedrock-test-server.js";
import { bedrockModel } from "./fixtures.js";
import { useBedrockServer } from "./server-setup.js";
import { verifySigV4 } from "./sigv4.js";

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

describe("Bedrock credentials from the AWS credential chain (@aws-sdk/credential-providers)", () => {
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

describe("Bedrock credentials given explicitly", () => {
	it("signs with accessKeyId, secretAccessKey and sessionToken from the options over the environment", async () => {
		const server = await wire.start(() => ({ frames: textFrames("ok") }));
		const message = await streamBedrock(bedrockModel({ baseUrl: server.url }), context, {
			accessKeyId: "AKIDFROMOPTIONS00000",
			secretAccessKey: "options-secret",
			sessionToken: "options-session-token",
		}).result();
		expect(message.stopReason, message.errorMessage).toBe("stop");
		const request = server.requests[0];
		expect(request.headers.authorization).toContain("Credential=AKIDFROMOPTIONS00000/");
		expect(request.headers["x-amz-security-token"]).toBe("options-session-token");
		expect(verifySigV4(request, "options-secret")).toBe(true);
	});

	it("signs with what a credentials function returns, called for each attempt", async () => {
		const server = await wire.start((_request, index) =>
			index === 0
				? { status: 503, errorType: "ServiceUnavailableException", message: "busy" }
				: { frames: textFrames("ok") },
		);
		let calls = 0;
		const message = await streamBedrock(bedrockModel({ baseUrl: server.url }), context, {
			maxRetryDelayMs: 1,
			credentials: async () => ({ accessKeyId: `AKIDFUNCTION0000000${++calls}`, secretAccessKey: "function-secret" }),
		}).result();
		expect(message.stopReason, message.errorMessage).toBe("stop");
		expect(server.requests[1].headers.authorization).toContain("Credential=AKIDFUNCTION00000002/");
		expect(verifySigV4(server.requests[1], "function-secret")).toBe(true);
	});

	it("ends with a clear error, sending nothing, when the options give a key id without its secret", async () => {
		const server = await wire.start(() => ({ frames: textFrames("never") }));
		const message = await streamBedrock(bedrockModel({ baseUrl: server.url }), context, {
			accessKeyId: "AKIDWITHOUTSECRET000",
		}).result();
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toContain(
			"AWS credentials from the accessKeyId and secretAccessKey options need both an access key id and a secret access key",
		);
		expect(server.requests).toHaveLength(0);
	});

	it("never shows the secret access key or the session token in an error, even when the server echoes them", async () => {
		const server = await wire.start((request) => ({
			status: 403,
			errorType: "AccessDeniedException",
			message: `denied for token ${request.headers["x-amz-security-token"]} and secret options-secret`,
		}));
		const message = await streamBedrock(bedrockModel({ baseUrl: server.url }), context, {
			accessKeyId: "AKIDFROMOPTIONS00000",
			secretAccessKey: "options-secret",
			sessionToken: "options-session-token",
		}).result();
		expect(message.errorMessage).toContain("AccessDeniedException");
		expect(message.errorMessage).not.toContain("options-session-token");
		expect(message.errorMessage).not.toContain("options-secret");
	});
});

describe("Bedrock region from a profile", () => {
	it("reads the profile's region from the shared config text", async () => {
		const { regionInConfigText } = await import("../../../src/providers/bedrock-converse-stream/profile-region.js");
		const text =
			"[default]\nregion = us-east-2\n\n[profile dev] # team\nregion=eu-central-1 ; comment\n[sso-session x]\nregion = ap-south-1\n";
		expect(regionInConfigText(text, "dev")).toBe("eu-central-1");
		expect(regionInConfigText(text, "default")).toBe("us-east-2");
		expect(regionInConfigText(text, "missing")).toBeUndefined();
	});
});

describe("Bedrock with a named profile", () => {
	it("signs with the profile's keys from the shared files and its region, not the environment's keys", async () => {
		const directory = mkdtempSync(join(tmpdir(), "keel-aws-profile-"));
		try {
			writeFileSync(
				join(directory, "config"),
				"[default]\nregion = us-east-2\n\n[profile team]\nregion = eu-central-1\n",
			);
			writeFileSync(
				join(directory, "credentials"),
				"[team]\naws_access_key_id = AKIDPROFILETEAM00000\naws_secret_access_key = team-profile-secret\n",
			);
			vi.stubEnv("AWS_CONFIG_FILE", join(directory, "config"));
			vi.stubEnv("AWS_SHARED_CREDENTIALS_FILE", join(directory, "credentials"));
			vi.stubEnv("AWS_REGION", "");
			const server = await wire.start(() => ({ frames: textFrames("ok") }));
			const message = await streamBedrock(bedrockModel({ baseUrl: server.url }), context, { profile: "team" }).result();
			expect(message.stopReason, message.errorMessage).toBe("stop");
			const request = server.requests[0];
			expect(request.headers.authorization).toContain("Credential=AKIDPROFILETEAM00000/");
			expect(request.headers.authorization).toContain("/eu-central-1/bedrock/aws4_request");
			expect(verifySigV4(request, "team-profile-secret")).toBe(true);
		} finally {
			rmSync(directory, { recursive: true, force: true });
		}
	});
});
