// A small TranscriptStore over a directory of JSONL files (<directory>/<sessionId>.jsonl, one record
// a line), enough for the CLI's chat: create, append, read, list newest first. A lock file
// (<sessionId>.lock, created exclusively) keeps two chats from writing one session at once.
import { appendFile, mkdir, open, readdir, readFile, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import type {
	SessionHeaderRecord,
	SessionInfo,
	SessionRecord,
	TranscriptReadResult,
	TranscriptStore,
	TranscriptTail,
	TranscriptWriter,
} from "@keel/agent-core/session";

const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export function assertSessionId(sessionId: string): void {
	if (!SESSION_ID.test(sessionId)) {
		throw new Error(`"${sessionId}" is not a session id: letters, digits, ".", "_" and "-" only`);
	}
}

export class JsonlDirectoryStore implements TranscriptStore {
	constructor(readonly directory: string) {}

	private file(sessionId: string): string {
		assertSessionId(sessionId);
		return join(this.directory, `${sessionId}.jsonl`);
	}

	async openWriter(sessionId: string, options: { create?: SessionHeaderRecord } = {}): Promise<TranscriptWriter> {
		const file = this.file(sessionId);
		await mkdir(this.directory, { recursive: true, mode: 0o700 });
		if (!options.create && !(await this.exists(sessionId))) throw new Error(`No session "${sessionId}"`);
		const lockFile = join(this.directory, `${sessionId}.lock`);
		const lock = await open(lockFile, "wx").catch((error: NodeJS.ErrnoException) => {
			if (error.code === "EEXIST") {
				throw new Error(
					`Session "${sessionId}" is open in another keel process (remove ${lockFile} if none is running)`,
				);
			}
			throw error;
		});
		await lock.close();
		if (options.create) await appendFile(file, `${JSON.stringify(options.create)}\n`, { mode: 0o600 });
		let pending = Promise.resolve();
		return {
			sessionId,
			append(records) {
				const lines = (Array.isArray(records) ? records : [records]).map((record) => `${JSON.stringify(record)}\n`);
				pending = pending.then(() => appendFile(file, lines.join("")));
				return pending;
			},
			flush: () => pending,
			async close() {
				await pending;
				await rm(lockFile, { force: true });
			},
		};
	}

	async read(sessionId: string): Promise<TranscriptReadResult> {
		const text = await readFile(this.file(sessionId), "utf8");
		const lines = text.split("\n");
		const result: TranscriptReadResult = { records: [], problems: [] };
		lines.forEach((line, index) => {
			if (line.trim() === "") return;
			try {
				result.records.push(JSON.parse(line) as SessionRecord);
			} catch (error) {
				const last = index === lines.length - 1;
				result.problems.push({
					line: index + 1,
					kind: last ? "torn-last-line" : "malformed",
					message: error instanceof Error ? error.message : String(error),
				});
			}
		});
		return result;
	}

	async readTail(sessionId: string, options: { entries: number }): Promise<TranscriptTail> {
		const { records, problems } = await this.read(sessionId);
		return { records: records.slice(-options.entries), problems };
	}

	async list(): Promise<SessionInfo[]> {
		const names = await readdir(this.directory).catch(() => [] as string[]);
		const sessions = await Promise.all(
			names
				.filter((name) => name.endsWith(".jsonl"))
				.map(async (name): Promise<SessionInfo> => {
					const sessionId = name.slice(0, -".jsonl".length);
					const file = join(this.directory, name);
					const [stats, text] = await Promise.all([stat(file), readFile(file, "utf8")]);
					const header = parseHeader(text.slice(0, text.indexOf("\n")));
					return {
						sessionId,
						title: header?.title,
						createdAt: header?.timestamp ?? stats.birthtimeMs,
						updatedAt: stats.mtimeMs,
						sizeBytes: stats.size,
					};
				}),
		);
		return sessions.sort((left, right) => right.updatedAt - left.updatedAt);
	}

	async exists(sessionId: string): Promise<boolean> {
		return stat(this.file(sessionId)).then(
			() => true,
			() => false,
		);
	}

	async delete(sessionId: string): Promise<void> {
		await rm(this.file(sessionId), { force: true });
	}
}

function parseHeader(line: string): SessionHeaderRecord | undefined {
	try {
		const record = JSON.parse(line) as SessionHeaderRecord;
		return record.type === "session" ? record : undefined;
	} catch {
		return undefined;
	}
}
