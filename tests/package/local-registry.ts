// A package registry on 127.0.0.1 that serves a fixed set of tarballs, for installs npm's `overrides`
// cannot express: `overrides` map a name to one specifier, but some dependency trees need two
// versions of one package (the MCP SDK wants content-type 1.x while express 5, below it, wants 2.x).
// npm resolves every range against the versions served here, exactly as against the public
// registry, and nothing leaves the machine.
//
// It speaks the part of the registry API npm's install uses: `GET /<name>` answers the package
// document (every version's manifest with `dist.tarball` and `dist.integrity`), and `GET
// /-/tarballs/<file>` the tarball. See https://github.com/npm/registry/blob/main/docs/responses/package-metadata.md
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { basename } from "node:path";

export interface RegistryPackage {
	/** The package's manifest as published (its package.json). */
	manifest: { name: string; version: string };
	/** The tarball file. */
	tarball: string;
}

export interface LocalRegistry {
	/** `http://127.0.0.1:<port>/`, for npm's `--registry`. */
	url: string;
	/**
	 * The package names npm asked for that the registry does not hold: an install fails on a needed
	 * one, and npm also asks for optional peers (vendor SDKs, `@opentelemetry/api`), which it skips.
	 */
	unknownRequests: string[];
	close(): Promise<void>;
}

export async function startLocalRegistry(packages: readonly RegistryPackage[]): Promise<LocalRegistry> {
	const tarballs = new Map<string, string>();
	const byName = new Map<string, RegistryPackage[]>();
	for (const entry of packages) {
		const file = basename(entry.tarball);
		const existing = tarballs.get(file);
		if (existing !== undefined && existing !== entry.tarball) throw new Error(`Two tarballs are named ${file}`);
		tarballs.set(file, entry.tarball);
		byName.set(entry.manifest.name, [...(byName.get(entry.manifest.name) ?? []), entry]);
	}
	const unknownRequests: string[] = [];
	let url = "";

	function packageDocument(name: string, entries: RegistryPackage[]): string {
		const versions: Record<string, unknown> = {};
		for (const { manifest, tarball } of entries) {
			const bytes = readFileSync(tarball);
			versions[manifest.version] = {
				...manifest,
				_id: `${name}@${manifest.version}`,
				dist: {
					tarball: `${url}-/tarballs/${basename(tarball)}`,
					integrity: `sha512-${createHash("sha512").update(bytes).digest("base64")}`,
					shasum: createHash("sha1").update(bytes).digest("hex"),
				},
			};
		}
		const newest = entries
			.map((entry) => entry.manifest.version)
			.sort(compareVersions)
			.at(-1);
		return JSON.stringify({ name, "dist-tags": { latest: newest }, versions });
	}

	const server = createServer((request, response) => {
		const path = decodeURIComponent((request.url ?? "/").split("?")[0]);
		if (request.method !== "GET") {
			response.writeHead(405).end();
			return;
		}
		if (path.startsWith("/-/tarballs/")) {
			const tarball = tarballs.get(path.slice("/-/tarballs/".length));
			if (tarball === undefined) {
				response.writeHead(404).end();
				return;
			}
			response.writeHead(200, { "content-type": "application/octet-stream" }).end(readFileSync(tarball));
			return;
		}
		const name = path.slice(1);
		const entries = byName.get(name);
		if (entries === undefined) {
			unknownRequests.push(name);
			response.writeHead(404, { "content-type": "application/json" }).end('{"error":"Not found"}');
			return;
		}
		response.writeHead(200, { "content-type": "application/json" }).end(packageDocument(name, entries));
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
	return {
		url,
		unknownRequests,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

/** Orders plain `major.minor.patch` versions (prerelease tags sort before their release). */
function compareVersions(left: string, right: string): number {
	const parse = (version: string) => version.split(/[.-]/).map((part) => (/^\d+$/.test(part) ? Number(part) : part));
	const a = parse(left);
	const b = parse(right);
	for (let index = 0; index < Math.max(a.length, b.length); index++) {
		const x = a[index];
		const y = b[index];
		if (x === y) continue;
		if (x === undefined) return 1;
		if (y === undefined) return -1;
		if (typeof x === "number" && typeof y === "number") return x - y;
		return String(x) < String(y) ? -1 : 1;
	}
	return 0;
}
