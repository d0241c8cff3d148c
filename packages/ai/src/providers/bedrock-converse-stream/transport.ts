import type {
	BedrockRuntimeClientConfig,
	ConverseStreamCommandInput,
	ConverseStreamCommandOutput,
	ConverseStreamOutput,
} from "@aws-sdk/client-bedrock-runtime";
import { AMBIENT_CREDENTIALS } from "../../env-api-keys.js";
import type { Context } from "../../types.js";
import { formatThrownValue } from "../../utils/error-message.js";
import { environmentVariable } from "../shared/environment.js";
import { connectionClosedError } from "../shared/http-transport.js";
import { NonRetryableError, type ProviderAttempt } from "../shared/provider-stream.js";
import { rawEventReporter } from "../shared/raw-event-callback.js";
import { headersToRecord } from "../shared/retry.js";
import { BedrockStreamDecoder } from "./decode.js";
import { encodeBedrockRequest } from "./encode.js";
import type { BedrockOptions } from "./options.js";

type BedrockAttempt = ProviderAttempt<"bedrock-converse-stream">;

// Bedrock's public endpoints: the SDK derives them from the region, so a catalogue row's
// us-east-1 base URL must not pin every call to us-east-1. Any other base URL (a VPC endpoint, a
// proxy, a test server) is used as it is.
const PUBLIC_ENDPOINT = /^https:\/\/bedrock-runtime(-fips)?\.[a-z0-9-]+\.amazonaws\.com\/?$/;

/**
 * The region: the option, AWS_REGION, AWS_DEFAULT_REGION; with a profile (option or AWS_PROFILE)
 * none, so the SDK reads the profile's; else us-east-1.
 */
export function resolveBedrockRegion(options: BedrockOptions): string | undefined {
	const region = options.region ?? environmentVariable("AWS_REGION") ?? environmentVariable("AWS_DEFAULT_REGION");
	if (region) return region;
	return options.profile || environmentVariable("AWS_PROFILE") ? undefined : "us-east-1";
}

/**
 * A Bedrock API key, sent as `Authorization: Bearer`: the option, a key given as `apiKey`, or
 * AWS_BEARER_TOKEN_BEDROCK. Undefined means SigV4 with the SDK's credential chain.
 * @see https://docs.aws.amazon.com/bedrock/latest/userguide/api-keys-use.html
 */
export function resolveBedrockBearerToken(options: BedrockOptions, apiKey: string | undefined): string | undefined {
	if (options.bearerToken) return options.bearerToken;
	if (apiKey && apiKey !== AMBIENT_CREDENTIALS) return apiKey;
	return environmentVariable("AWS_BEARER_TOKEN_BEDROCK");
}

/** The client's configuration; SDK retries are off because the harness retries. */
export function bedrockClientConfig(attempt: BedrockAttempt, options: BedrockOptions): BedrockRuntimeClientConfig {
	const config: BedrockRuntimeClientConfig = { maxAttempts: 1 };
	const region = resolveBedrockRegion(options);
	if (region) config.region = region;
	if (options.profile) config.profile = options.profile;
	const baseUrl = attempt.model.baseUrl;
	if (baseUrl && !PUBLIC_ENDPOINT.test(baseUrl)) config.endpoint = baseUrl;
	const bearerToken = resolveBedrockBearerToken(options, attempt.apiKey);
	if (bearerToken) {
		config.token = { token: bearerToken };
		config.authSchemePreference = ["httpBearerAuth"];
	} else {
		// The SDK would prefer bearer auth whenever AWS_BEARER_TOKEN_BEDROCK exists, even empty.
		config.authSchemePreference = ["sigv4"];
	}
	return config;
}

// The SDK's module name sits in a variable so that bundlers do not follow the import: the AWS SDK
// brings node:http2, node:stream and node:https into a bundle, which would break every browser and
// Worker build of @keel/ai, not only Bedrock calls. Node resolves it from node_modules at run time.
const BEDROCK_SDK_MODULE = "@aws-sdk/client-bedrock-runtime";

async function loadBedrockSdk(): Promise<typeof import("@aws-sdk/client-bedrock-runtime")> {
	return import(/* @vite-ignore */ /* webpackIgnore: true */ BEDROCK_SDK_MODULE);
}

function eventName(event: ConverseStreamOutput): string {
	for (const key of Object.keys(event)) if (key !== "$unknown") return key;
	return "$unknown";
}

/**
 * One attempt: ConverseStream through the AWS SDK (SigV4 or bearer signing and the binary event
 * stream need it), loaded on the first call so neither the package root nor other providers pay
 * for it. The SDK's events go to the decoder one by one.
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html
 */
export async function runBedrockAttempt(
	attempt: BedrockAttempt,
	context: Context,
	options: BedrockOptions,
): Promise<void> {
	if (typeof process === "undefined" || !process.versions?.node) {
		throw new NonRetryableError(
			"The bedrock-converse-stream API runs in Node only (the AWS SDK signs requests with Node's credential chain); call Bedrock from a server, for example through the Keel proxy",
		);
	}
	const input = await attempt.preparePayload(encodeRequestOrFail(attempt.model, context, options));
	// A Bedrock API key given as bearerToken or AWS_BEARER_TOKEN_BEDROCK is as secret as `apiKey`
	// (which the harness already redacts): servers and proxies may echo the Authorization header.
	attempt.builder.addSecret(resolveBedrockBearerToken(options, attempt.apiKey));
	const sdk = await loadBedrockSdk();
	const client = reusableClient(sdk, bedrockClientConfig(attempt, options));
	let response: ConverseStreamCommandOutput;
	try {
		response = await client.send(new sdk.ConverseStreamCommand(input), { abortSignal: attempt.signal });
	} catch (error) {
		await reportErrorResponse(attempt, error);
		throw error;
	}
	attempt.touch();
	await attempt.reportResponse({ status: response.$metadata.httpStatusCode ?? 200, headers: {} });
	if (!response.stream) throw new Error("The Bedrock response to a streaming request has no stream");
	await readStream(attempt, response.stream);
}

type BedrockClient = InstanceType<typeof import("@aws-sdk/client-bedrock-runtime").BedrockRuntimeClient>;

// Clients are kept per configuration: a client resolves and caches its credentials (a profile's
// files, SSO, an instance role's metadata call) once, not on every call. Each request still gets
// its own HTTP/2 session (the SDK's default for event streams), so a kept client holds no socket.
const MAX_KEPT_CLIENTS = 8;
const keptClients = new Map<string, BedrockClient>();

function reusableClient(
	sdk: typeof import("@aws-sdk/client-bedrock-runtime"),
	config: BedrockRuntimeClientConfig,
): BedrockClient {
	const key = JSON.stringify([config.region, config.endpoint, config.profile, config.token]);
	const kept = keptClients.get(key);
	if (kept) return kept;
	const client = new sdk.BedrockRuntimeClient(config);
	keptClients.set(key, client);
	if (keptClients.size > MAX_KEPT_CLIENTS) {
		const [oldestKey, oldest] = keptClients.entries().next().value as [string, BedrockClient];
		keptClients.delete(oldestKey);
		oldest.destroy();
	}
	return client;
}

async function readStream(attempt: BedrockAttempt, stream: AsyncIterable<ConverseStreamOutput>): Promise<void> {
	const decoder = new BedrockStreamDecoder(attempt.builder);
	const reportRawEvent = rawEventReporter(attempt);
	const iterator = stream[Symbol.asyncIterator]();
	try {
		for (;;) {
			let next: IteratorResult<ConverseStreamOutput>;
			try {
				next = await iterator.next();
			} catch (error) {
				if (attempt.signal.aborted) return;
				// An exception frame is raised by the SDK as a named exception: classified as it is.
				if (error && typeof error === "object" && "$fault" in error) throw error;
				throw connectionClosedError(error, "Bedrock");
			}
			if (next.done) break;
			attempt.touch();
			const event = next.value;
			const pending = reportRawEvent?.({ event: eventName(event), data: JSON.stringify(event) });
			if (pending) {
				await pending;
				if (attempt.signal.aborted) return;
			}
			decoder.decode(event);
			if (decoder.isFinished) return;
		}
	} finally {
		await iterator.return?.();
	}
	if (attempt.signal.aborted) return;
	decoder.end();
}

async function reportErrorResponse(attempt: BedrockAttempt, error: unknown): Promise<void> {
	const candidate = error as { $metadata?: { httpStatusCode?: unknown }; $response?: { headers?: unknown } } | null;
	const status = candidate?.$metadata?.httpStatusCode;
	if (typeof status !== "number") return;
	const headers = candidate?.$response?.headers as Record<string, string> | undefined;
	await attempt.reportResponse({ status, headers: headersToRecord(headers) });
}

/** Input the encoder rejects fails the call at once: retrying the same input cannot help. */
function encodeRequestOrFail(
	model: BedrockAttempt["model"],
	context: Context,
	options: BedrockOptions,
): ConverseStreamCommandInput {
	try {
		return encodeBedrockRequest(model, context, options);
	} catch (error) {
		if (error instanceof NonRetryableError) throw error;
		throw new NonRetryableError(formatThrownValue(error));
	}
}
