// @keel/ai/provider-kit: what a provider author needs to add a wire API to Keel from outside the
// package, the same pieces the built-in providers are made of. A provider is a ProviderDefinition
// (options mapping, error reading, one attempt); `apiProviderFromDefinition(api, () => import(…))`
// makes a registry entry that loads the module on its first call, and `registerApiProvider` from
// @keel/ai registers it. The harness around the attempt (retries, abort, timeoutMs, the idle
// watchdog, key redaction, one error event that keeps the content) is the built-ins' own.
// See docs/adding-a-provider.md.

// The call harness.
export {
	classifyError,
	type ErrorClassification,
	headersToRecord,
	parseRetryAfter,
	readHeader,
} from "../call/error-classification.js";
export { encodeOrFail, NonRetryableError, type ProviderAttempt } from "../call/provider-attempt.js";
export {
	apiProviderFromDefinition,
	type ProviderDefinition,
	type ProviderDefinitionSource,
	streamSimpleWithDefinition,
	streamWithDefinition,
} from "../call/provider-definition.js";
// The message.
export type { AssistantMessageBuilder, UsageUpdate } from "../message/assistant-message-builder.js";
// The wire.
export { framesInBatches, ndjsonFramer, singleFrames, sseFramer } from "../wire/framers.js";
export { mergeHeaders } from "../wire/headers.js";
export {
	endpointUrl,
	type FramedRequest,
	jsonInsteadOfStreamError,
	runSseAttempt,
	runStreamingAttempt,
	type SendThroughClient,
	type SseRequest,
	type StreamingRequest,
} from "../wire/http-transport.js";
export { parseStreamEventJson } from "../wire/parse-stream-json.js";
export { ProviderHttpError, ProviderStreamError } from "../wire/provider-errors.js";
export {
	type ChunkSource,
	connectionClosedError,
	END_OF_STREAM,
	type Framer,
	type PumpOutcome,
	type PumpRequest,
	pump,
} from "../wire/pump.js";
export { requireBaseUrl } from "../wire/require-base-url.js";
export type { ServerSentEvent } from "../wire/sse.js";
export type { StreamDecoder } from "../wire/stream-decoder.js";
