import type { Credential } from "./types.js";

/**
 * What is wrong with a value offered as a credential, or undefined when it is one. Stores check
 * what they are given and what they read, so a hand-edited file fails with a message, not later
 * with an undefined key.
 */
export function findCredentialProblem(value: unknown): string | undefined {
	if (value === null || typeof value !== "object" || Array.isArray(value)) {
		return `a credential must be an object like { type: "api-key", key } or { type: "oauth", access, … }, got ${describe(value)}`;
	}
	const candidate = value as Record<string, unknown>;
	if (candidate.type === "api-key") {
		return isNonEmptyString(candidate.key) ? undefined : `an "api-key" credential needs a non-empty string "key"`;
	}
	if (candidate.type === "oauth") {
		if (!isNonEmptyString(candidate.access)) return `an "oauth" credential needs a non-empty string "access"`;
		if (candidate.refresh !== undefined && !isNonEmptyString(candidate.refresh)) {
			return `an "oauth" credential's "refresh" must be a non-empty string when present`;
		}
		if (candidate.expiresAt !== undefined && !Number.isFinite(candidate.expiresAt)) {
			return `an "oauth" credential's "expiresAt" must be a number of milliseconds since 1970 when present`;
		}
		return undefined;
	}
	// A short type is quoted to show a typo ("apikey"); anything long may be a secret put in the wrong field.
	const type = candidate.type;
	const got = typeof type === "string" && type.length <= 12 ? `"${type}"` : describe(type);
	return `a credential's "type" must be "api-key" or "oauth", got ${got}`;
}

export function assertCredential(provider: string, value: unknown): asserts value is Credential {
	if (typeof provider !== "string" || provider === "" || provider === "__proto__") {
		throw new TypeError(
			`A credential's provider must be a provider id such as "openrouter", got ${typeof provider === "string" ? JSON.stringify(provider) : describe(provider)}`,
		);
	}
	const problem = findCredentialProblem(value);
	if (problem) throw new TypeError(`Cannot store the credential for provider "${provider}": ${problem}`);
}

export function isNonEmptyString(value: unknown): value is string {
	return typeof value === "string" && value !== "";
}

// Describes a value by its kind only: what was passed may be a secret in the wrong place.
function describe(value: unknown): string {
	if (value === null) return "null";
	if (Array.isArray(value)) return "an array";
	if (typeof value === "string") return "a string";
	return typeof value;
}
