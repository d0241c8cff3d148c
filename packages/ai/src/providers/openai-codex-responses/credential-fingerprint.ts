// A short, non-reversible stand-in for a credential, so a long-lived structure can tell whether a
// call uses the same token without holding the token itself. Synchronous (crypto.subtle is async)
// and platform-free: two 32-bit FNV-1a hashes with different offsets, 64 bits in all, enough that
// two different tokens of one process do not meet by chance. It only compares; it protects nothing.

const FNV_PRIME = 0x01000193;

function fnv1a(text: string, offset: number): number {
	let hash = offset;
	for (let index = 0; index < text.length; index++) {
		hash ^= text.charCodeAt(index);
		hash = Math.imul(hash, FNV_PRIME);
	}
	return hash >>> 0;
}

export function credentialFingerprint(credential: string): string {
	const low = fnv1a(credential, 0x811c9dc5).toString(16).padStart(8, "0");
	const high = fnv1a(credential, 0x050c5d1f).toString(16).padStart(8, "0");
	return `${high}${low}`;
}
