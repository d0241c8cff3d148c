// Credentials in one JSON file, { "<provider>": <credential>, … }, readable by its owner only
// (mode 0600, in a 0700 directory when the store creates it). Every change is a read-modify-write
// under a lock file, written atomically, so two processes never lose each other's changes and a
// crash never leaves a half-written file. The lock also serialises token refreshes (withLock).
import { AsyncLocalStorage } from "node:async_hooks";
import { chmod, mkdir, readFile } from "node:fs/promises";
import { dirname } from "node:path";
import { assertCredential, findCredentialProblem } from "../credential-shape.js";
import type { Credential, CredentialStore } from "../types.js";
import { writeFileAtomically } from "./atomic-write.js";
import { defaultCredentialsPath } from "./default-path.js";
import { type FileLockOptions, withFileLock } from "./file-lock.js";

export interface FileCredentialStoreOptions {
	/** The JSON file; defaults to defaultCredentialsPath(). */
	path?: string;
	/** How the lock file (`<path>.lock`) is waited for and when it counts as abandoned. */
	lock?: FileLockOptions;
}

export interface FileCredentialStore extends CredentialStore {
	readonly path: string;
}

/** A credential store on a JSON file; see the top of this file for the guarantees. */
export function createFileCredentialStore(options: FileCredentialStoreOptions = {}): FileCredentialStore {
	const path = options.path ?? defaultCredentialsPath();
	const lockPath = `${path}.lock`;
	// Marks the async work running inside this store's lock, so set() and delete() called from a
	// withLock task (a refresh) do not wait for the lock their own caller holds.
	const insideLock = new AsyncLocalStorage<boolean>();
	// Callers in this process queue here first, so only one of them at a time polls the lock file.
	let processTail: Promise<unknown> = Promise.resolve();

	function withLock<T>(task: () => Promise<T>): Promise<T> {
		if (insideLock.getStore()) return task();
		const locked = async () => {
			// The lock file sits beside the store, whose directory may not exist yet.
			await mkdir(dirname(path), { recursive: true, mode: 0o700 });
			return withFileLock(lockPath, () => insideLock.run(true, task), options.lock);
		};
		const run = processTail.then(locked, locked);
		processTail = run.catch(() => undefined);
		return run;
	}

	async function readAll(): Promise<Record<string, Credential>> {
		let text: string;
		try {
			text = await readFile(path, "utf8");
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
			throw error;
		}
		let parsed: unknown;
		try {
			parsed = JSON.parse(text);
		} catch {
			// The content is not quoted: it holds secrets.
			throw new Error(`The credentials file ${path} is not valid JSON; fix or delete it`);
		}
		if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) {
			throw new Error(`The credentials file ${path} must hold a JSON object keyed by provider id`);
		}
		return parsed as Record<string, Credential>;
	}

	async function writeAll(credentials: Record<string, Credential>): Promise<void> {
		await writeFileAtomically(path, `${JSON.stringify(credentials, null, "\t")}\n`, 0o600);
		// rename keeps the new file's mode, but a file created by hand may have other bits: make sure.
		await chmod(path, 0o600);
	}

	return {
		path,
		async get(provider) {
			const credentials = await readAll();
			if (!Object.hasOwn(credentials, provider)) return undefined;
			const credential = credentials[provider];
			const problem = findCredentialProblem(credential);
			if (problem) throw new Error(`The credential for provider "${provider}" in ${path} is not valid: ${problem}`);
			return credential;
		},
		async set(provider, credential) {
			assertCredential(provider, credential);
			await withLock(async () => {
				const credentials = await readAll();
				credentials[provider] = credential;
				await writeAll(credentials);
			});
		},
		async delete(provider) {
			return withLock(async () => {
				const credentials = await readAll();
				if (!Object.hasOwn(credentials, provider)) return false;
				delete credentials[provider];
				await writeAll(credentials);
				return true;
			});
		},
		async list() {
			return Object.keys(await readAll()).sort();
		},
		withLock,
	};
}
