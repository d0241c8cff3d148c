// Application Default Credentials from files (Node only): the file named by
// GOOGLE_APPLICATION_CREDENTIALS, else the one `gcloud auth application-default login` writes
// (~/.config/gcloud/application_default_credentials.json, %APPDATA%\gcloud\… on Windows).
// Loaded with a dynamic import and reading files through process.getBuiltinModule, so browser and
// Worker bundles of the google-vertex module carry no node: imports. Without a file, the chain
// ends at the metadata server (metadata-server-token.ts).
// @see https://cloud.google.com/docs/authentication/application-default-credentials#search_order

import { NonRetryableError } from "../../call/provider-attempt.js";
import { environmentVariable } from "../../wire/environment.js";
import { type GoogleCredentials, validateGoogleCredentials } from "./google-credentials.js";

export interface LocatedCredentials {
	credentials: GoogleCredentials;
	/** The file they came from, for error messages. */
	source: string;
}

type FileSystem = typeof import("node:fs");

function nodeFileSystem(): FileSystem | undefined {
	const nodeProcess = globalThis.process as
		| (NodeJS.Process & { getBuiltinModule?: (id: string) => unknown })
		| undefined;
	return nodeProcess?.getBuiltinModule?.("node:fs") as FileSystem | undefined;
}

function gcloudCredentialsPath(): string | undefined {
	const appData = environmentVariable("APPDATA");
	if (process.platform === "win32" && appData) return `${appData}\\gcloud\\application_default_credentials.json`;
	const home = environmentVariable("HOME") ?? environmentVariable("USERPROFILE");
	return home ? `${home}/.config/gcloud/application_default_credentials.json` : undefined;
}

function readCredentialsFile(fs: FileSystem, path: string): LocatedCredentials {
	let text: string;
	try {
		text = fs.readFileSync(path, "utf8");
	} catch (error) {
		const code = (error as { code?: unknown }).code;
		throw new NonRetryableError(
			`Google credentials file ${path} could not be read${typeof code === "string" ? ` (${code})` : ""}`,
		);
	}
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch {
		throw new NonRetryableError(`Google credentials file ${path} is not valid JSON`);
	}
	return { credentials: validateGoogleCredentials(parsed, `file ${path}`), source: `file ${path}` };
}

/** The credentials Application Default Credentials would use from files, or undefined when there are none. */
export function findApplicationDefaultCredentials(): LocatedCredentials | undefined {
	const fs = nodeFileSystem();
	if (!fs) return undefined;
	const explicit = environmentVariable("GOOGLE_APPLICATION_CREDENTIALS");
	if (explicit) return readCredentialsFile(fs, explicit);
	const gcloudPath = gcloudCredentialsPath();
	return gcloudPath && fs.existsSync(gcloudPath) ? readCredentialsFile(fs, gcloudPath) : undefined;
}
