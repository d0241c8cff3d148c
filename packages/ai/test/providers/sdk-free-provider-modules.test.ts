// Every provider sends its requests with the platform fetch (Bedrock too, signed with aws4fetch); the
// vendors' SDKs are types only, and Bedrock's AWS credential chain is imported only by a Node call
// that has no credentials of its own.
// Loading a provider module must therefore load no SDK (the Anthropic SDK alone costs ~200 ms to
// import and brings node:child_process into Worker bundles). A fresh Node process records every
// module URL it resolves while it imports the HTTP provider modules and runs one call.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, expect, it } from "vitest";

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), "../..");
const workDirectory = mkdtempSync(join(tmpdir(), "keel-sdk-free-"));
const PROVIDER_SDK =
	/\/node_modules\/(@anthropic-ai\/sdk|openai|@mistralai\/mistralai|@google\/genai|google-auth-library|@aws-sdk\/[^/]+|@smithy\/[^/]+)\//;

afterAll(() => {
	rmSync(workDirectory, { recursive: true, force: true });
});

it("loading every provider module and streaming a call loads no vendor SDK", () => {
	const hook = join(workDirectory, "record.mjs");
	writeFileSync(
		hook,
		`import { appendFileSync } from "node:fs";
export async function resolve(specifier, context, nextResolve) {
	const result = await nextResolve(specifier, context);
	appendFileSync(process.env.KEEL_RESOLUTION_LOG, result.url + "\\n");
	return result;
}
`,
	);
	const register = join(workDirectory, "register.mjs");
	writeFileSync(
		register,
		`import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(hook).href)});\n`,
	);
	const source = (path: string) => JSON.stringify(pathToFileURL(join(packageRoot, path)).href);
	const script = `
const { streamAnthropic } = await import(${source("src/providers/anthropic/index.ts")});
await import(${source("src/providers/openai-completions/index.ts")});
await import(${source("src/providers/openai-responses/index.ts")});
await import(${source("src/providers/azure-openai-responses/index.ts")});
await import(${source("src/providers/mistral-conversations/index.ts")});
await import(${source("src/providers/google-generative-ai/index.ts")});
await import(${source("src/providers/google-vertex/index.ts")});
await import(${source("src/providers/openai-codex-responses/index.ts")});
await import(${source("src/providers/bedrock-converse-stream/index.ts")});
const { WireTestServer } = await import(${source("src/testing/wire-test-server.ts")});
const server = await WireTestServer.start();
server.enqueue({ body: 'event: message_start\\ndata: {"type":"message_start","message":{"id":"m","model":"c","usage":{"input_tokens":1,"output_tokens":1}}}\\n\\nevent: message_delta\\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":1}}\\n\\nevent: message_stop\\ndata: {"type":"message_stop"}\\n\\n' });
const model = { id: "c", name: "c", api: "anthropic-messages", provider: "anthropic", baseUrl: server.url, reasoning: false, input: ["text"], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 1000, maxTokens: 100 };
const result = await streamAnthropic(model, { messages: [{ role: "user", content: "hi", timestamp: 0 }] }, { apiKey: "k" }).result();
await server.close();
if (result.stopReason !== "stop") throw new Error("call failed: " + result.errorMessage);
`;
	const log = join(workDirectory, "resolutions.log");
	writeFileSync(log, "");
	const child = spawnSync(
		process.execPath,
		["--import", "tsx", "--import", pathToFileURL(register).href, "--input-type=module", "-e", script],
		{ cwd: packageRoot, env: { ...process.env, KEEL_RESOLUTION_LOG: log }, encoding: "utf8", timeout: 60_000 },
	);
	expect(child.status, child.stderr).toBe(0);
	const modules = readFileSync(log, "utf8").split("\n").filter(Boolean);
	// The provider sources were really loaded, so the check below is not vacuous.
	expect(modules.some((url) => url.endsWith("/src/wire/http-transport.ts"))).toBe(true);
	expect(modules.filter((url) => PROVIDER_SDK.test(url))).toEqual([]);
}, 60_000);
