// The proxy server's memory under a burst of large requests: N concurrent requests of 3.8 MiB
// (just under the default 4 MiB limit) against the Node handler on 127.0.0.1, in a fresh process
// (proxy-memory-server.ts) whose peak RSS is sampled. With the default in-flight budget (64 MiB)
// most of a 300-request burst is answered 503 with Retry-After and the peak stays bounded; a run
// with the budget lifted and fewer requests gives the memory one in-flight request costs.
import { spawn } from "node:child_process";
import { request as httpRequest } from "node:http";
import { fileURLToPath } from "node:url";
import { printTable } from "./measure.js";

const BODY_BYTES = Math.round(3.8 * 1024 * 1024);
const MIB = 1024 * 1024;

/** One request body of BODY_BYTES, shared by every request so the client's own memory stays flat. */
function requestBody(): Buffer {
	const envelope = (content: string) =>
		JSON.stringify({
			model: { provider: "bench", id: "bench-model" },
			context: { messages: [{ role: "user", content, timestamp: 0 }] },
			options: {},
		});
	const overhead = Buffer.byteLength(envelope(""));
	return Buffer.from(envelope("x".repeat(BODY_BYTES - overhead)));
}

interface Stats {
	baseline: number;
	peak: number;
	now: number;
}

async function startServer(env: Record<string, string>) {
	const script = fileURLToPath(new URL("./proxy-memory-server.ts", import.meta.url));
	const child = spawn(process.execPath, ["--import", "tsx", script], {
		env: { ...process.env, ...env },
		stdio: ["ignore", "pipe", "inherit"],
	});
	const url = await new Promise<string>((resolve, reject) => {
		let output = "";
		child.stdout.on("data", (chunk: Buffer) => {
			output += chunk.toString();
			const match = output.match(/READY (\S+)/);
			if (match) resolve(match[1]);
		});
		child.once("exit", (code) => reject(new Error(`proxy-memory-server exited with ${code}`)));
	});
	return { url, stop: () => child.kill() };
}

function post(url: string, body: Buffer): Promise<number> {
	return new Promise((resolve, reject) => {
		const request = httpRequest(
			`${url}/api/stream`,
			{
				method: "POST",
				agent: false,
				headers: { Authorization: "Bearer bench", "Content-Type": "application/json", "Content-Length": body.length },
			},
			(response) => {
				response.resume();
				response.on("end", () => resolve(response.statusCode ?? 0));
			},
		);
		// A refused request is answered and closed before its body is read: not a failure here.
		request.on("error", (error: NodeJS.ErrnoException) =>
			error.code === "EPIPE" || error.code === "ECONNRESET" ? resolve(-1) : reject(error),
		);
		request.end(body);
	});
}

async function getStats(url: string): Promise<Stats> {
	const response = await fetch(`${url}/stats`);
	return (await response.json()) as Stats;
}

async function burst(label: string, concurrent: number, env: Record<string, string>) {
	const server = await startServer(env);
	try {
		const body = requestBody();
		const statuses = await Promise.all(Array.from({ length: concurrent }, () => post(server.url, body)));
		const stats = await getStats(server.url);
		const served = statuses.filter((status) => status === 200).length;
		return {
			run: label,
			requests: concurrent,
			served,
			"refused (503 or closed)": statuses.filter((status) => status !== 200).length,
			"baseline MiB": stats.baseline / MIB,
			"peak RSS MiB": stats.peak / MIB,
			"after MiB": stats.now / MIB,
			"MiB per served request": served > 0 ? (stats.peak - stats.baseline) / MIB / Math.min(served, concurrent) : 0,
		};
	} finally {
		server.stop();
	}
}

export default async function (): Promise<void> {
	const concurrent = Number(process.env.BENCH_PROXY_MEMORY_REQUESTS ?? 300);
	const rows = [
		await burst("default budget (64 MiB)", concurrent, {}),
		// Each request stays in flight for the upstream hold, so all of them are in memory at once.
		await burst("budget lifted, 40 requests", 40, { BENCH_MAX_IN_FLIGHT: String(2 ** 40) }),
	];
	printTable(rows);
	console.log(`(request bodies ${(BODY_BYTES / MIB).toFixed(1)} MiB; upstream call held 300 ms)`);
}
