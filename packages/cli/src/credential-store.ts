// The credentials `keel login` saves and every command uses: the file store of
// @keel/ai/credentials/node, at $KEEL_CREDENTIALS_FILE or ~/.config/keel/credentials.json
// (mode 0600, atomic writes, locked refreshes).
import type { CredentialStore } from "@keel/ai/credentials";
import { createFileCredentialStore, defaultCredentialsPath } from "@keel/ai/credentials/node";

export function credentialsPath(env: Record<string, string | undefined>): string {
	return defaultCredentialsPath(env as NodeJS.ProcessEnv);
}

export function openCredentialStore(env: Record<string, string | undefined>): CredentialStore & { path: string } {
	return createFileCredentialStore({ path: credentialsPath(env) });
}
