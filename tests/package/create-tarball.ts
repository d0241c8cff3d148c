// Writes a package directory as an npm tarball: a gzipped ustar archive whose entries sit under
// `package/`, the layout `npm pack` produces and `npm install <file.tgz>` reads.
//
// The packaging test uses it to turn the dependencies pnpm already installed (node_modules/.pnpm)
// into tarballs plain npm can install with no network. `npm pack <directory>` cannot be used on
// those directories: inside pnpm's layout it exits with "Exit handler never called!" (npm 11).
import { lstatSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { gzipSync } from "node:zlib";

const BLOCK = 512;

/** Packs every file under `directory` (following symlinks, skipping node_modules) into `tarballPath`. */
export function createTarball(directory: string, tarballPath: string): void {
	const chunks: Buffer[] = [];
	for (const file of listFiles(directory)) {
		const content = readFileSync(file);
		const name = `package/${relative(directory, file).split(sep).join("/")}`;
		const executable = (statSync(file).mode & 0o111) !== 0;
		chunks.push(createHeader(name, content.length, executable ? 0o755 : 0o644));
		chunks.push(content);
		const padding = (BLOCK - (content.length % BLOCK)) % BLOCK;
		if (padding > 0) chunks.push(Buffer.alloc(padding));
	}
	// An archive ends with two empty blocks.
	chunks.push(Buffer.alloc(BLOCK * 2));
	writeFileSync(tarballPath, gzipSync(Buffer.concat(chunks)));
}

function listFiles(directory: string): string[] {
	const files: string[] = [];
	for (const entry of readdirSync(directory).sort()) {
		if (entry === "node_modules") continue;
		const path = join(directory, entry);
		const isSymbolicLink = lstatSync(path).isSymbolicLink();
		const stats = statSync(path);
		if (stats.isDirectory() && !isSymbolicLink) files.push(...listFiles(path));
		else if (stats.isFile()) files.push(path);
	}
	return files;
}

// ustar header: fixed-width fields, numbers in octal, checksum over the header with its own field
// read as spaces. Names over 100 bytes are split into `prefix` (up to 155 bytes) and `name`.
function createHeader(path: string, size: number, mode: number): Buffer {
	const header = Buffer.alloc(BLOCK);
	const { prefix, name } = splitPath(path);
	header.write(name, 0, 100, "utf8");
	header.write(octal(mode, 8), 100, "ascii");
	header.write(octal(0, 8), 108, "ascii"); // uid
	header.write(octal(0, 8), 116, "ascii"); // gid
	header.write(octal(size, 12), 124, "ascii");
	header.write(octal(0, 12), 136, "ascii"); // mtime: fixed, so the tarball is reproducible
	header.write("        ", 148, "ascii"); // checksum placeholder
	header.write("0", 156, "ascii"); // regular file
	header.write("ustar\u000000", 257, "ascii");
	header.write(prefix, 345, 155, "utf8");
	let checksum = 0;
	for (const byte of header) checksum += byte;
	header.write(`${checksum.toString(8).padStart(6, "0")}\u0000 `, 148, "ascii");
	return header;
}

function splitPath(path: string): { prefix: string; name: string } {
	if (Buffer.byteLength(path) <= 100) return { prefix: "", name: path };
	const parts = path.split("/");
	for (let index = 1; index < parts.length; index++) {
		const prefix = parts.slice(0, index).join("/");
		const name = parts.slice(index).join("/");
		if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(name) <= 100) return { prefix, name };
	}
	throw new Error(`createTarball: the path "${path}" is too long for a ustar header`);
}

function octal(value: number, width: number): string {
	return `${value.toString(8).padStart(width - 1, "0")}\u0000`;
}
