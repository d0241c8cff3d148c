import type { AuthOperationOptions, ModelsCredential, ModelsCredentialInfo, ModelsCredentialStore } from "./types.js";

/**
 * Credentials held in memory for one `Models` collection. Credentials are copied in and out, so a
 * caller changing an object it got does not change the store. `modify` calls for one provider run
 * one after another (a promise chain per provider), so a token refresh never races another.
 */
export class InMemoryCredentialStore implements ModelsCredentialStore {
	private readonly credentials = new Map<string, ModelsCredential>();
	private readonly chains = new Map<string, Promise<unknown>>();

	constructor(initial: Record<string, ModelsCredential> = {}) {
		for (const [providerId, credential] of Object.entries(initial)) this.credentials.set(providerId, { ...credential });
	}

	async read(providerId: string, options?: AuthOperationOptions): Promise<ModelsCredential | undefined> {
		options?.signal?.throwIfAborted();
		const credential = this.credentials.get(providerId);
		return credential ? { ...credential } : undefined;
	}

	async list(options?: AuthOperationOptions): Promise<readonly ModelsCredentialInfo[]> {
		options?.signal?.throwIfAborted();
		return [...this.credentials.entries()]
			.map(([providerId, credential]) => ({ providerId, type: credential.type }))
			.sort((first, second) => first.providerId.localeCompare(second.providerId));
	}

	modify(
		providerId: string,
		change: (current: ModelsCredential | undefined) => Promise<ModelsCredential | undefined>,
		options?: AuthOperationOptions,
	): Promise<ModelsCredential | undefined> {
		const task = async () => {
			options?.signal?.throwIfAborted();
			const current = this.credentials.get(providerId);
			const next = await change(current ? { ...current } : undefined);
			if (next === undefined) this.credentials.delete(providerId);
			else this.credentials.set(providerId, { ...next });
			return next ? { ...next } : undefined;
		};
		const previous = this.chains.get(providerId) ?? Promise.resolve();
		const run = previous.then(task, task);
		const settled = run.catch(() => undefined);
		this.chains.set(providerId, settled);
		// Drop the chain once it is the last one, so the map does not grow with every provider ever seen.
		void settled.then(() => {
			if (this.chains.get(providerId) === settled) this.chains.delete(providerId);
		});
		return run;
	}

	async delete(providerId: string, options?: AuthOperationOptions): Promise<void> {
		await this.modify(providerId, async () => undefined, options);
	}
}
