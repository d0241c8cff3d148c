import { AwsV4Signer } from "aws4fetch";
import { headersToRecord } from "../../call/error-classification.js";
import { encodeOrFail, type ProviderAttempt } from "../../call/provider-attempt.js";
import { AMBIENT_CREDENTIALS } from "../../env-api-keys.js";
import type { Context } from "../../types.js";
import { environmentVariable } from "../../wire/environment.js";
import { mergeHeaders } from "../../wire/headers.js";
import { ProviderHttpError, ProviderStreamError, readErrorBody } from "../../wire/provider-errors.js";
import { pump } from "../../wire/pump.js";
import { BedrockStreamDecoder, BedrockStreamFormatError } from "./decode.js";
import { encodeBedrockRequest } from "./encode.js";
import { bedrockStreamException } from "./errors.js";
import { type EventStreamFrame, EventStreamFrameReader } from "./event-stream-frames.js";
import type { BedrockOptions } from "./options.js";
import { readProfileRegion } from "./profile-region.js";
import { bedrockProfile, resolveSigningCredentials } from "./signing-credentials.js";
import type { ConverseStreamEvent, ConverseStreamRequest } from "./wire-types.js";

type BedrockAttempt = ProviderAttempt<"bedrock-converse-stream">;

// Bedrock's public endpoints follow the region, so a catalogue row's us-east-1 base URL must not pin
// every call to us-east-1. Any other base URL (a VPC endpoint, a proxy, a test server) is used as it is.
// @see https://docs.aws.amazon.com/general/latest/gr/bedrock.html#bedrock_region
const PUBLIC_ENDPOINT = /^https:\/\/bedrock-runtime(-fips)?\.[a-z0-9-]+\.amazonaws\.com\/?$/;

/** The SigV4 signing name of the Bedrock runtime API. */
const SIGNING_SERVICE = "bedrock";

/**
 * The region: the option, AWS_REGION, AWS_DEFAULT_REGION; with a profile (option or AWS_PROFILE)
 * none, so the profile's is read; else us-east-1.
 */
export function resolveBedrockRegion(options: BedrockOptions): string | undefined {
	const region = options.region ?? environmentVariable("AWS_REGION") ?? environmentVariable("AWS_DEFAULT_REGION");
	if (region) return region;
	return bedrockProfile(options) ? undefined : "us-east-1";
}

/**
 * A Bedrock API key, sent as `Authorization: Bearer`: the option, a key given as `apiKey`, or
 * AWS_BEARER_TOKEN_BEDROCK. Undefined means SigV4.
 * @see https://docs.aws.amazon.com/bedrock/latest/userguide/api-keys-use.html
 */
export function resolveBedrockBearerToken(options: BedrockOptions, apiKey: string | undefined): string | undefined {
	if (options.bearerToken) return options.bearerToken;
	if (apiKey && apiKey !== AMBIENT_CREDENTIALS) return apiKey;
	return environmentVariable("AWS_BEARER_TOKEN_BEDROCK");
}

/** `…/model/{modelId}/converse-stream`; the id (an ARN has `:` and `/`) is one encoded path segment. */
export function converseStreamUrl(baseUrl: string | undefined, region: string, modelId: string): string {
	const endpoint =
		baseUrl && !PUBLIC_ENDPOINT.test(baseUrl)
			? baseUrl.replace(/\/+$/, "")
			: `https://bedrock-runtime.${region}.amazonaws.com`;
	return `${endpoint}/model/${encodeURIComponent(modelId)}/converse-stream`;
}

/**
 * One attempt: ConverseStream over `fetch`, signed with SigV4 (aws4fetch, Web Crypto) or sent with
 * a Bedrock API key, so it runs wherever `fetch` and `crypto.subtle` do (Node, browsers, Workers).
 * The answer, `application/vnd.amazon.eventstream`, is read frame by frame by Keel
 * (event-stream-frames.ts) through the shared pump.
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html
 * @see https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-create-signed-request.html
 */
export async function runBedrockAttempt(
	attempt: BedrockAttempt,
	context: Context,
	options: BedrockOptions,
): Promise<void> {
	const payload = await attempt.preparePayload(
		encodeOrFail(() => encodeBedrockRequest(attempt.model, context, options)),
	);
	// A Bedrock API key given as bearerToken or AWS_BEARER_TOKEN_BEDROCK is as secret as `apiKey`
	// (which the harness already redacts): servers and proxies may echo the Authorization header.
	const bearerToken = resolveBedrockBearerToken(options, attempt.apiKey);
	attempt.builder.addSecret(bearerToken);
	const profile = bedrockProfile(options);
	const region =
		resolveBedrockRegion(options) ?? (profile ? await readProfileRegion(profile) : undefined) ?? "us-east-1";
	const { modelId, ...fields } = payload as ConverseStreamRequest;
	// `onPayload` may return a request without `modelId`: the model's id is the path then.
	const url = converseStreamUrl(attempt.model.baseUrl, region, modelId ?? attempt.model.id);
	const body = JSON.stringify(fields);
	// The caller's headers first: the content type, the signature's headers and the bearer token win.
	const headers = new Headers(mergeHeaders(attempt.model.headers, options.headers));
	headers.set("content-type", "application/json");
	headers.set("accept", "application/vnd.amazon.eventstream");
	let signedHeaders: Headers;
	if (bearerToken) {
		headers.set("authorization", `Bearer ${bearerToken}`);
		signedHeaders = headers;
	} else {
		headers.delete("authorization");
		const credentials = await resolveSigningCredentials(options);
		attempt.builder.addSecret(credentials.secretAccessKey);
		attempt.builder.addSecret(credentials.sessionToken);
		const signer = new AwsV4Signer({
			method: "POST",
			url,
			headers,
			body,
			accessKeyId: credentials.accessKeyId,
			secretAccessKey: credentials.secretAccessKey,
			sessionToken: credentials.sessionToken,
			service: SIGNING_SERVICE,
			region,
		});
		signedHeaders = (await signer.sign()).headers;
	}
	const response = await fetch(url, { method: "POST", headers: signedHeaders, body, signal: attempt.signal });
	attempt.touch();
	await attempt.reportResponse({ status: response.status, headers: headersToRecord(response.headers) });
	if (!response.ok) throw await bedrockHttpError(response);
	if (!response.body) throw new Error("The Bedrock response to a streaming request has no body");
	await readEventStreamBody(attempt, response.body);
}

/**
 * An error answer as `<status> <message> (<exception>)`. Bedrock names the exception in the
 * `x-amzn-ErrorType` header (`ValidationException:http://…`) or the body's `__type`, and puts the
 * text in the body's `message` (`Message` in some services' answers).
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/CommonErrors.html
 */
async function bedrockHttpError(response: Response): Promise<ProviderHttpError> {
	const { text } = await readErrorBody(response);
	let parsed: Record<string, unknown> = {};
	try {
		const value: unknown = JSON.parse(text);
		if (value && typeof value === "object") parsed = value as Record<string, unknown>;
	} catch {
		// Not JSON (a proxy's page): quoted as it is below.
	}
	const rawMessage = parsed.message ?? parsed.Message;
	const message =
		typeof rawMessage === "string" && rawMessage !== ""
			? rawMessage
			: text.trim().slice(0, 2000) || response.statusText || "no body";
	const rawType = response.headers.get("x-amzn-errortype") ?? (typeof parsed.__type === "string" ? parsed.__type : "");
	// `ValidationException:http://internal.amazon.com/…` or `com.amazon.coral#ValidationException`.
	const type = rawType.split(":")[0].split("#").pop() || undefined;
	return new ProviderHttpError(response.status, response.headers, { message, type });
}

const payloadDecoder = new TextDecoder();

/** A frame as the event the decoder reads (`{contentBlockDelta: {…}}`); exception and error frames throw. */
function eventFromFrame(frame: EventStreamFrame): ConverseStreamEvent {
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
	return { [type]: body } as ConverseStreamEvent;
}

/** Reads the body's frames into the decoder (one async step per network chunk, not per event). */
async function readEventStreamBody(attempt: BedrockAttempt, body: ReadableStream<Uint8Array>): Promise<void> {
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
