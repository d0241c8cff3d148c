import { homedir } from "node:os";
import { join } from "node:path";

/**
 * Where the file store keeps credentials unless told otherwise: $KEEL_CREDENTIALS_FILE, else
 * keel/credentials.json under $XDG_CONFIG_HOME (~/.config when unset), or under %APPDATA% on Windows.
 */
export function defaultCredentialsPath(environment: NodeJS.ProcessEnv = process.env): string {
	if (environment.KEEL_CREDENTIALS_FILE) return environment.KEEL_CREDENTIALS_FILE;
	const configurationHome =
		environment.XDG_CONFIG_HOME ||
		(process.platform === "win32" && environment.APPDATA ? environment.APPDATA : join(homedir(), ".config"));
	return join(configurationHome, "keel", "credentials.json");
}
