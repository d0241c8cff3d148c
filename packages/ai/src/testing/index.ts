// @keel/ai/testing: offline test tools for Keel's own tests and for users' tests.
export {
	formatSse,
	type RecordedRequest,
	type ScriptedResponse,
	type SseEvent,
	splitBytes,
	splitText,
	WireTestServer,
} from "./wire-test-server.js";
