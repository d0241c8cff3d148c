// @keel/ai as a user's project receives it: packed by pnpm (the tool that publishes it) and
// extracted into a fresh project's node_modules, away from the repository's own node_modules, so
// that a bundle measured there holds exactly what the published package would give it.
import { cp, mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { assertBuilt, packWithPnpm } from "../package/consumer-project.js";
import { entryPath, REPOSITORY_ROOT } from "./bundle.js";

export interface PackedProject {
	directory: string;
	/** Copies an entry of tests/runtimes/entries into the project and returns its path there. */
	entry(name: string): Promise<string>;
	remove(): Promise<void>;
}

/** A temporary project whose only package is @keel/ai, from its packed tarball. */
export async function createPackedAiProject(): Promise<PackedProject> {
	const aiDirectory = join(REPOSITORY_ROOT, "packages", "ai");
	assertBuilt(aiDirectory);
	const directory = await mkdtemp(join(tmpdir(), "keel-packed-ai-"));
	const packed = await packWithPnpm(REPOSITORY_ROOT, aiDirectory, join(directory, "tarballs"));
	const installed = join(directory, "node_modules", "@keel", "ai");
	await mkdir(installed, { recursive: true });
	await cp(packed.extracted, installed, { recursive: true });
	return {
		directory,
		async entry(name) {
			const target = join(directory, basename(name));
			await cp(entryPath(name), target);
			return target;
		},
		remove: () => rm(directory, { recursive: true, force: true }),
	};
}
