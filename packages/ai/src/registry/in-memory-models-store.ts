import type { AuthOperationOptions, ModelsStore, ModelsStoreEntry } from "./types.js";

/** Fetched model lists kept for the life of the process; the default `ModelsStore`. */
export class InMemoryModelsStore implements ModelsStore {
	private readonly entries = new Map<string, ModelsStoreEntry>();

	async read(providerId: string, options?: AuthOperationOptions): Promise<ModelsStoreEntry | undefined> {
		options?.signal?.throwIfAborted();
		const entry = this.entries.get(providerId);
		return entry ? { ...entry, models: [...entry.models] } : undefined;
	}

	async write(providerId: string, entry: ModelsStoreEntry, options?: AuthOperationOptions): Promise<void> {
		options?.signal?.throwIfAborted();
		this.entries.set(providerId, { ...entry, models: [...entry.models] });
	}

	async delete(providerId: string, options?: AuthOperationOptions): Promise<void> {
		options?.signal?.throwIfAborted();
		this.entries.delete(providerId);
	}
}
