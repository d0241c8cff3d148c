import type {
	BedrockRuntimeClientConfig,
	ConverseStreamCommandOutput,
	ConverseStreamOutput,
} from "@aws-sdk/client-bedrock-runtime";
import { headersToRecord } from "../../call/error-classification.js";
import { encodeOrFail, NonRetryableError, type ProviderAttempt } from "../../call/provider-attempt.js";
import { AMBIENT_CREDENTIALS } from "../../env-api-keys.js";
import type { Context } from "../../types.js";
import { environmentVariable } from "../../wire/environment.js";
import { singleFrames } from "../../wire/framers.js";
import { mergeHeaders } from "../../wire/headers.js";
import { ProviderStreamError } from "../../wire/provider-errors.js";
import { connectionClosedError, pump } from "../../wire/pump.js";
import { ClientCache } from "./client-cache.js";
import { BedrockStreamDecoder, BedrockStreamFormatError } from "./decode.js";
import { encodeBedrockRequest } from "./encode.js";
import { bedrockStreamException } from "./errors.js";
import { type EventStreamFrame, EventStreamFrameReader } from "./event-stream-frames.js";
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

// It is an optional peer dependency of @keel/ai (the other APIs need none of its 30-odd packages), so
// an application that calls Bedrock installs it; without it the call ends with this instruction.
async function loadBedrockSdk(): Promise<typeof import("@aws-sdk/client-bedrock-runtime")> {
	try {
		return await import(/* @vite-ignore */ /* webpackIgnore: true */ BEDROCK_SDK_MODULE);
	} catch (error) {
		const missing = error as { code?: unknown; message?: unknown } | undefined;
		const sdkIsMissing =
			missing?.code === "ERR_MODULE_NOT_FOUND" && String(missing.message).includes(`'${BEDROCK_SDK_MODULE}'`);
		if (!sdkIsMissing) throw error;
		throw new NonRetryableError(
			`The bedrock-converse-stream API sends requests with the AWS SDK, which is not installed: run \`npm install ${BEDROCK_SDK_MODULE}\` in your application`,
		);
	}
}

function eventName(event: ConverseStreamOutput): string {
	for (const key of Object.keys(event)) if (key !== "$unknown") return key;
	return "$unknown";
}

/**
 * One attempt: ConverseStream through the AWS SDK (SigV4 or bearer signing and the binary event
 * stream need it), loaded on the first call so neither the package root nor other providers pay
 * for it. The SDK signs and sends; the frames of a successful answer are read by Keel
 * (takeEventStreamBody, readEventStreamBody) and go to the decoder one by one.
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
	const input = await attempt.preparePayload(encodeOrFail(() => encodeBedrockRequest(attempt.model, context, options)));
	// A Bedrock API key given as bearerToken or AWS_BEARER_TOKEN_BEDROCK is as secret as `apiKey`
	// (which the harness already redacts): servers and proxies may echo the Authorization header.
	attempt.builder.addSecret(resolveBedrockBearerToken(options, attempt.apiKey));
	const sdk = await loadBedrockSdk();
	const config = bedrockClientConfig(attempt, options);
	const lent = keptClients.acquire(clientCacheKey(config), () => new sdk.BedrockRuntimeClient(config));
	try {
		const command = new sdk.ConverseStreamCommand(input);
		addCallerHeaders(command, mergeHeaders(attempt.model.headers, options.headers));
		const rawBody = takeEventStreamBody(command);
		let response: ConverseStreamCommandOutput;
		try {
			response = await lent.client.send(command, { abortSignal: attempt.signal });
		} catch (error) {
			await reportErrorResponse(attempt, error);
			throw error;
		}
		attempt.touch();
		await attempt.reportResponse({ status: response.$metadata.httpStatusCode ?? 200, headers: {} });
		const body = rawBody();
		if (isByteStream(body)) await readEventStreamBody(attempt, body);
		else if (response.stream) await readStream(attempt, response.stream);
		else throw new Error("The Bedrock response to a streaming request has no stream");
	} finally {
		lent.release();
	}
}

type BedrockClient = InstanceType<typeof import("@aws-sdk/client-bedrock-runtime").BedrockRuntimeClient>;
type ConverseStreamCommand = InstanceType<typeof import("@aws-sdk/client-bedrock-runtime").ConverseStreamCommand>;

// Each request gets its own HTTP/2 session (the SDK's default for event streams), so a kept client
// holds no socket between calls; see client-cache.ts for why clients are kept at all.
const keptClients = new ClientCache<BedrockClient>();

function clientCacheKey(config: BedrockRuntimeClientConfig): string {
	return JSON.stringify([config.region, config.endpoint, config.profile, config.token]);
}

/**
 * The model's and the caller's headers (`model.headers`, `options.headers`) on the HTTP request.
 * The SDK builds the request itself, so they go in through a middleware of the command's build
 * step, which runs before signing: SigV4 signs them, and the headers the SDK sets later
 * (`authorization`, `x-amz-date` …) win over a caller's header of the same name.
 * @see https://docs.aws.amazon.com/sdk-for-javascript/v3/developer-guide/middleware-stack.html
 */
function addCallerHeaders(command: ConverseStreamCommand, headers: Record<string, string>): void {
	if (Object.keys(headers).length === 0) return;
	command.middlewareStack.add(
		(next) => async (args) => {
			const request = args.request as { headers?: Record<string, string> } | undefined;
			if (request?.headers) Object.assign(request.headers, headers);
			return next(args);
		},
		{ step: "build", name: "keelCallerHeaders" },
	);
}

/**
 * Takes the HTTP body of a successful response away from the SDK, in a middleware just inside its
 * deserializer: the SDK then deserializes an empty event stream (it reads the first event before
 * `send` resolves, so it must not see the real one), and Keel reads the frames itself
 * (event-stream-frames.ts). Error answers are left to the SDK, which reads them into its named
 * exceptions.
 */
function takeEventStreamBody(command: ConverseStreamCommand): () => unknown {
	let body: unknown;
	type Next = (args: unknown) => Promise<{ response: unknown }>;
	const middleware = (next: Next) => async (args: unknown) => {
		const result = await next(args);
		const response = result.response as { statusCode?: number; body?: unknown } | undefined;
		if (
			response &&
			typeof response.statusCode === "number" &&
			response.statusCode < 300 &&
			isByteStream(response.body)
		) {
			body = response.body;
			response.body = emptyByteStream();
		}
		return result;
	};
	command.middlewareStack.addRelativeTo(middleware as Parameters<typeof command.middlewareStack.addRelativeTo>[0], {
		relation: "after",
		toMiddleware: "deserializerMiddleware",
		name: "keelEventStreamBody",
	});
	return () => body;
}

function emptyByteStream(): AsyncIterable<Uint8Array> {
	return { [Symbol.asyncIterator]: () => ({ next: async () => ({ done: true, value: undefined }) }) };
}

function isByteStream(body: unknown): body is AsyncIterable<Uint8Array> {
	return typeof (body as AsyncIterable<Uint8Array> | undefined)?.[Symbol.asyncIterator] === "function";
}

const payloadDecoder = new TextDecoder();

/** A frame as the event the decoder reads (`{contentBlockDelta: {…}}`); exception and error frames throw. */
function eventFromFrame(frame: EventStreamFrame): ConverseStreamOutput {
	const type = frame.type ?? "";
	if (frame.messageType === "error") {
		throw new ProviderStreamError(`${frame.errorMessage ?? "no message"} (${type || "unknown error"})`, type);
	}
	let body: unknown;
	const text = payloadDecoder.decode(frame.payload);
	try {
		body = text === "" ? {} : JSON.parse(text);
	} catch {
		throw new BedrockStreamFormatError(`Malformed Bedrock stream event (a payload is not JSON): ${text.slice(0, 300)}`);
	}
	if (frame.messageType === "exception")
		throw bedrockStreamException(type.charAt(0).toLowerCase() + type.slice(1), body);
	return { [type]: body } as unknown as ConverseStreamOutput;
}

/** Reads the body's frames into the decoder (one async step per network chunk, not per event). */
async function readEventStreamBody(attempt: BedrockAttempt, body: AsyncIterable<Uint8Array>): Promise<void> {
	const frames = new EventStreamFrameReader();
	await pump(attempt, body, {
		label: "Bedrock",
		framer: {
			push: (chunk: Uint8Array) => frames.push(chunk),
			get error() {
				return frames.error && new BedrockStreamFormatError(`Malformed Bedrock event stream: ${frames.error.message}`);
			},
		},
		decoder: new BedrockStreamDecoder(attempt.builder),
		parse: eventFromFrame,
		rawEvent: (frame) => ({ event: frame.type, data: payloadDecoder.decode(frame.payload) }),
	});
}

/** Reads the events the SDK parsed itself (when Keel could not take the raw body) into the decoder. */
async function readStream(attempt: BedrockAttempt, stream: AsyncIterable<ConverseStreamOutput>): Promise<void> {
	await pump(attempt, stream, {
		label: "Bedrock",
		framer: singleFrames<ConverseStreamOutput>(),
		decoder: new BedrockStreamDecoder(attempt.builder),
		parse: (event) => event,
		rawEvent: (event) => ({ event: eventName(event), data: JSON.stringify(event) }),
		// An exception frame is raised by the SDK as a named exception: classified as it is.
		readError: (error) =>
			error && typeof error === "object" && "$fault" in error ? error : connectionClosedError(error, "Bedrock"),
	});
}

async function reportErrorResponse(attempt: BedrockAttempt, error: unknown): Promise<void> {
	const candidate = error as { $metadata?: { httpStatusCode?: unknown }; $response?: { headers?: unknown } } | null;
	const status = candidate?.$metadata?.httpStatusCode;
	if (typeof status !== "number") return;
	const headers = candidate?.$response?.headers as Record<string, string> | undefined;
	await attempt.reportResponse({ status, headers: headersToRecord(headers) });
}
