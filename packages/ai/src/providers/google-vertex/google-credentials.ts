// The two kinds of Google credentials file Keel reads: a service-account key (created in the
// Cloud console, `"type": "service_account"`) and the authorized-user file that
// `gcloud auth application-default login` writes (`"type": "authorized_user"`).
// @see https://cloud.google.com/docs/authentication/application-default-credentials
// @see https://developers.google.com/identity/protocols/oauth2/service-account
import { NonRetryableError } from "../../call/provider-attempt.js";

export const DEFAULT_TOKEN_URI = "https://oauth2.googleapis.com/token";

export interface GoogleServiceAccountCredentials {
	type: "service_account";
	client_email: string;
	private_key: string;
	private_key_id?: string;
	token_uri?: string;
}

export interface GoogleAuthorizedUserCredentials {
	type: "authorized_user";
	client_id: string;
	client_secret: string;
	refresh_token: string;
	token_uri?: string;
}

/** A service-account key or an authorized-user file, as parsed JSON. */
export type GoogleCredentials = GoogleServiceAccountCredentials | GoogleAuthorizedUserCredentials;

const REQUIRED_FIELDS: Record<GoogleCredentials["type"], readonly string[]> = {
	service_account: ["client_email", "private_key"],
	authorized_user: ["client_id", "client_secret", "refresh_token"],
};

/**
 * Checks parsed credentials field by field. `source` names where they came from (a file path or
 * options.credentials) so the error says what to fix; field values are never quoted, as they
 * may be secrets.
 */
export function validateGoogleCredentials(value: unknown, source: string): GoogleCredentials {
	if (typeof value !== "object" || value === null || Array.isArray(value)) {
		throw new NonRetryableError(`Google credentials in ${source} are not a JSON object`);
	}
	const record = value as Record<string, unknown>;
	const type = record.type;
	if (type !== "service_account" && type !== "authorized_user") {
		const found = typeof type === "string" ? JSON.stringify(type) : "missing";
		throw new NonRetryableError(
			`Google credentials in ${source}: field "type" is ${found}; Keel reads "service_account" and "authorized_user" credentials`,
		);
	}
	for (const field of REQUIRED_FIELDS[type]) {
		const fieldValue = record[field];
		if (typeof fieldValue !== "string" || fieldValue === "") {
			throw new NonRetryableError(
				`Google credentials in ${source}: field "${field}" is missing or not a non-empty string`,
			);
		}
	}
	if (record.token_uri !== undefined && !isHttpUrl(record.token_uri)) {
		throw new NonRetryableError(`Google credentials in ${source}: field "token_uri" is not an http(s) URL`);
	}
	return record as unknown as GoogleCredentials;
}

function isHttpUrl(value: unknown): boolean {
	if (typeof value !== "string") return false;
	try {
		const url = new URL(value);
		return url.protocol === "https:" || url.protocol === "http:";
	} catch {
		return false;
	}
}
