// @keel/ai/testing: offline test tools for Keel's own tests and for users' tests.

export { type CallRecorder, recordCall } from "./call-recorder.js";
export {
	CALL_RECORDING_FORMAT,
	type CallRecording,
	parseCallRecording,
	type RecordedEvent,
	type RecordedResponse,
	readCallRecording,
} from "./call-recording.js";
export { createFauxCore, type FauxCore } from "./faux-core.js";
export { type FauxProviderHandle, fauxProvider } from "./faux-models-provider.js";
// --- faux provider: scripted in-memory responses through the real provider harness ---
export {
	type FauxAssistantScript,
	type FauxContentBlock,
	type FauxModelDefinition,
	type FauxProviderOptions,
	type FauxProviderRegistration,
	type FauxProviderState,
	type FauxRequest,
	type FauxResponse,
	type FauxTextBlock,
	type FauxThinkingBlock,
	type FauxToolCallBlock,
	fauxAssistantMessage,
	fauxText,
	fauxThinking,
	fauxToolCall,
	NO_MORE_FAUX_RESPONSES,
	registerFauxProvider,
} from "./faux-provider.js";
export {
	formatSse,
	type RecordedRequest,
	type RecordingReplayOptions,
	type ScriptedResponse,
	type SseEvent,
	splitBytes,
	splitText,
	WireTestServer,
	type WireTestServerOptions,
} from "./wire-test-server.js";
