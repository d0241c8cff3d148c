// Mistral accepts only tool-call ids of exactly 9 characters of [a-zA-Z0-9]; any other id is
// rejected ("Tool call id was call_… but must be a-z, A-Z, 0-9, with a length of 9"). Its own ids
// have that form; those of other APIs (`toolu_…`, `call_…|fc_…`, free text) do not.
import { hashToAlphanumeric } from "../../message/tool-call-ids.js";

const MISTRAL_TOOL_CALL_ID = /^[a-zA-Z0-9]{9}$/;

/** True for an id Mistral accepts as it is. */
export function isMistralToolCallId(id: string): boolean {
	return MISTRAL_TOOL_CALL_ID.test(id);
}

/**
 * An id Mistral accepts: the id itself when it already is one, else a deterministic 9-character
 * hash of it, so a call and its result map to the same id. Two ids that hash alike are told apart
 * by `transformMessages`, which salts the second.
 */
export function normalizeMistralToolCallId(id: string): string {
	return isMistralToolCallId(id) ? id : hashToAlphanumeric(id, 9);
}
