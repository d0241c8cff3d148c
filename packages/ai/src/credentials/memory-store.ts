import { assertCredential } from "./credential-shape.js";
import type { Credential, CredentialStore } from "./types.js";

/**
 * A store that lives as long as the process: for tests, for servers that take credentials from
 * their own secret manager, and for browsers. Credentials are copied in and out, so a caller
 * changing an object it got does not change the store.
 */
export function createMemoryCredentialStore(initial: Record<string, Credential> = {}): CredentialStore {
	const credentials = new Map<string, Credential>();
	for (const [provider, credential] of Object.entries(initial)) {
		assertCredential(provider, credential);
		credentials.set(provider, { ...credential });
	}
	let lockTail: Promise<unknown> = Promise.resolve();
	return {
		async get(provider) {
			const credential = credentials.get(provider);
			return credential ? { ...credential } : undefined;
		},
		async set(provider, credential) {
			assertCredential(provider, credential);
			credentials.set(provider, { ...credential });
		},
		async delete(provider) {
			return credentials.delete(provider);
		},
		async list() {
			return [...credentials.keys()].sort();
		},
		// One task at a time, in call order: a chain of promises, each task starting when the one
		// before it settles (whether it succeeded or not).
		withLock<T>(task: () => Promise<T>): Promise<T> {
			const run = lockTail.then(task, task);
			lockTail = run.catch(() => undefined);
			return run;
		},
	};
}
