import type { TextSignatureV1 } from "../../types.js";

/** Serialises an output message's identity (item id and phase) for `TextContent.textSignature`. */
export function encodeTextSignature(id: string, phase: TextSignatureV1["phase"] | null | undefined): string {
	const signature: TextSignatureV1 = { v: 1, id };
	if (phase) signature.phase = phase;
	return JSON.stringify(signature);
}

/**
 * Reads a text signature. Older messages stored the bare item id instead of V1 JSON, so a string
 * that is not V1 JSON is taken as the id.
 */
export function parseTextSignature(signature: string | undefined): TextSignatureV1 | undefined {
	if (!signature) return undefined;
	if (signature.startsWith("{")) {
		try {
			const parsed = JSON.parse(signature) as Partial<TextSignatureV1>;
			if (parsed.v === 1 && typeof parsed.id === "string") {
				const result: TextSignatureV1 = { v: 1, id: parsed.id };
				if (parsed.phase === "commentary" || parsed.phase === "final_answer") result.phase = parsed.phase;
				return result;
			}
		} catch {
			// Not JSON: fall through and treat it as a bare id.
		}
	}
	return { v: 1, id: signature };
}
