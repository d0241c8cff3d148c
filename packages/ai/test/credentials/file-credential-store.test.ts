import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createFileCredentialStore, defaultCredentialsPath } from "../../src/credentials/node/index.js";
import { type OAuthTestServer, sendJson, startOAuthTestServer } from "./oauth-test-server.js";

const fixtures = fileURLToPath(new URL("./fixtures/", import.meta.url));
const packageRoot = fileURLToPath(new URL("../../", import.meta.url));
let directory: string;
let path: string;

beforeEach(async () => {
	directory = await mkdtemp(join(tmpdir(), "keel-credentials-"));
	path = join(directory, "keel", "credentials.json");
});
afterEach(async () => {
	await rm(directory, { recursive: true, force: true });
});

/** Starts a fixture in a fresh Node (tsx for the TypeScript sources). */
function startFixture(name: string, ...arguments_: string[]): ChildProcess {
	return spawn(process.execPath, ["--import", "tsx", join(fixtures, name), ...arguments_], {
		cwd: packageRoot,
		stdio: ["ignore", "pipe", "pipe"],
	});
}

function outputLines(
	child: ChildProcess,
	onLine: (line: string) => void,
): Promise<{ code: number | null; signal: string | null; stderr: string }> {
	let buffered = "";
	let stderr = "";
	child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
		buffered += chunk;
		for (let newline = buffered.indexOf("\n"); newline >= 0; newline = buffered.indexOf("\n")) {
			onLine(buffered.slice(0, newline));
			buffered = buffered.slice(newline + 1);
		}
	});
	child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
		stderr += chunk;
	});
	return new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal, stderr })));
}

describe("the file credential store", () => {
	it("keeps credentials in a file only its owner can read, in a directory only its owner can enter", async () => {
		const store = createFileCredentialStore({ path });
		await store.set("openrouter", { type: "api-key", key: "sk-or-v1-key" });
		await store.set("google-vertex", { type: "oauth", access: "ya29.token", expiresAt: 1, projectId: "p" });
		expect((await stat(path)).mode & 0o777).toBe(0o600);
		expect((await stat(join(directory, "keel"))).mode & 0o777).toBe(0o700);
		const reopened = createFileCredentialStore({ path });
		expect(await reopened.list()).toEqual(["google-vertex", "openrouter"]);
		expect(await reopened.get("google-vertex")).toEqual({
			type: "oauth",
			access: "ya29.token",
			expiresAt: 1,
			projectId: "p",
		});
		expect(await reopened.delete("openrouter")).toBe(true);
		expect(await reopened.delete("openrouter")).toBe(false);
		expect(JSON.parse(await readFile(path, "utf8"))).toEqual({
			"google-vertex": { type: "oauth", access: "ya29.token", expiresAt: 1, projectId: "p" },
		});
	});

	it("makes a file created with looser permissions owner-only on the next write", async () => {
		await rm(join(directory, "keel"), { recursive: true, force: true });
		await writeFile(join(directory, "loose.json"), "{}", { mode: 0o644 });
		const store = createFileCredentialStore({ path: join(directory, "loose.json") });
		await store.set("groq", { type: "api-key", key: "gsk-key" });
		expect((await stat(join(directory, "loose.json"))).mode & 0o777).toBe(0o600);
	});

	it("reads a missing file as empty, and names a broken file without quoting it", async () => {
		const store = createFileCredentialStore({ path });
		expect(await store.list()).toEqual([]);
		expect(await store.get("openrouter")).toBeUndefined();
		await store.set("openrouter", { type: "api-key", key: "sk-or-v1-key" });
		await writeFile(path, '{"openrouter": {"type": "api-key", "key": "sk-or-v1-secret-part');
		const failure = (await store.get("openrouter").catch((error: unknown) => error)) as Error;
		expect(failure.message).toBe(`The credentials file ${path} is not valid JSON; fix or delete it`);
	});

	it("leaves the old file whole when the process dies halfway through writing the new one", async () => {
		const store = createFileCredentialStore({ path });
		await store.set("openrouter", { type: "api-key", key: "sk-or-v1-old-key" });
		const before = await readFile(path, "utf8");
		const exit = await outputLines(startFixture("crash-while-writing.ts", path), () => {});
		expect(exit.signal, exit.stderr).toBe("SIGKILL");
		// The half-written temporary file is there: the crash happened mid-write, not before it.
		const leftovers = (await readdir(join(directory, "keel"))).filter((name) => name.endsWith(".tmp"));
		expect(leftovers).toHaveLength(1);
		expect(await readFile(path, "utf8")).toBe(before);
		expect(await store.get("openrouter")).toEqual({ type: "api-key", key: "sk-or-v1-old-key" });
		// The dead process still "holds" the lock file; the next write recognises that and proceeds.
		expect(JSON.parse(await readFile(`${path}.lock`, "utf8"))).toMatchObject({ host: hostname() });
		await store.set("openrouter", { type: "api-key", key: "sk-or-v1-after-crash" });
		expect(await store.get("openrouter")).toEqual({ type: "api-key", key: "sk-or-v1-after-crash" });
	}, 60_000);

	it("takes over a lock left by a process that no longer runs", async () => {
		const finished = spawnSync(process.execPath, ["-e", ""]);
		await createFileCredentialStore({ path }).set("groq", { type: "api-key", key: "gsk-1" });
		await writeFile(`${path}.lock`, JSON.stringify({ pid: finished.pid, host: hostname(), createdAt: Date.now() }));
		const store = createFileCredentialStore({ path, lock: { timeoutMs: 5000 } });
		await store.set("groq", { type: "api-key", key: "gsk-2" });
		expect(await store.get("groq")).toEqual({ type: "api-key", key: "gsk-2" });
		await expect(stat(`${path}.lock`)).rejects.toMatchObject({ code: "ENOENT" });
	});

	it("takes over a lock older than the stale limit even when its holder still runs", async () => {
		await writeFile(
			join(directory, "old.json.lock"),
			JSON.stringify({ pid: process.pid, host: hostname(), createdAt: 0 }),
		);
		const store = createFileCredentialStore({ path: join(directory, "old.json"), lock: { timeoutMs: 5000 } });
		await store.set("groq", { type: "api-key", key: "gsk-3" });
		expect(await store.get("groq")).toEqual({ type: "api-key", key: "gsk-3" });
	});

	it("gives up on a live lock after its timeout, naming the lock file and its holder", async () => {
		await writeFile(
			join(directory, "held.json.lock"),
			JSON.stringify({ pid: process.pid, host: hostname(), createdAt: Date.now() }),
		);
		const store = createFileCredentialStore({ path: join(directory, "held.json"), lock: { timeoutMs: 100 } });
		await expect(store.set("groq", { type: "api-key", key: "gsk-4" })).rejects.toThrow(
			`Timed out after 0.1 s waiting for the lock ${join(directory, "held.json.lock")} held by process ${process.pid} on ${hostname()}; if no such process is running, delete the file`,
		);
	});

	it("defaults to keel/credentials.json under the configuration directory, or KEEL_CREDENTIALS_FILE", () => {
		expect(defaultCredentialsPath({ XDG_CONFIG_HOME: "/home/u/.config" })).toBe(
			"/home/u/.config/keel/credentials.json",
		);
		expect(defaultCredentialsPath({ KEEL_CREDENTIALS_FILE: "/etc/keel.json" })).toBe("/etc/keel.json");
	});
});

describe("refreshing a token from two processes at once", () => {
	let server: OAuthTestServer;
	beforeEach(async () => {
		server = await startOAuthTestServer();
	});
	afterEach(async () => {
		await server.close();
	});

	it("sends one refresh to the token endpoint, and both processes use the new token", async () => {
		await createFileCredentialStore({ path }).set("google-vertex", {
			type: "oauth",
			access: "ya29.old-access",
			refresh: "1//refresh-token",
			expiresAt: Date.now() + 10_000,
			tokenUrl: `${server.url}/token`,
			clientId: "client",
		});
		// The refresh is answered only once both processes have started resolving, so the second
		// finds the token expiring while the first is still refreshing it.
		let bothCalling: () => void = () => {};
		const bothStarted = new Promise<void>((resolve) => {
			bothCalling = resolve;
		});
		server.route("/token", async (_request, response) => {
			await bothStarted;
			sendJson(response, 200, { access_token: "ya29.new-access", expires_in: 3600, token_type: "Bearer" });
		});
		let calling = 0;
		const answers: unknown[] = [];
		const onLine = (line: string) => {
			if (line === "calling") {
				calling++;
				if (calling === 2) bothCalling();
			} else answers.push(JSON.parse(line));
		};
		const exits = await Promise.all([
			outputLines(startFixture("resolve-key-in-child.ts", path, "google-vertex"), onLine),
			outputLines(startFixture("resolve-key-in-child.ts", path, "google-vertex"), onLine),
		]);
		expect(
			exits.map((exit) => exit.code),
			exits.map((exit) => exit.stderr).join("\n"),
		).toEqual([0, 0]);
		expect(answers).toEqual([{ key: "ya29.new-access" }, { key: "ya29.new-access" }]);
		expect(server.requests.filter((request) => request.path === "/token")).toHaveLength(1);
		expect(await createFileCredentialStore({ path }).get("google-vertex")).toMatchObject({
			access: "ya29.new-access",
			refresh: "1//refresh-token",
		});
	}, 60_000);
});
