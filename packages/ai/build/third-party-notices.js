// Writes dist/THIRD_PARTY_NOTICES.md: the licence of every third-party package that the build
// bundled into dist (TypeBox, AJV and their dependencies), as their MIT and BSD licences require
// when the code is redistributed. The list comes from esbuild's metafile, so it follows what is
// really bundled; the metafile itself is removed afterwards (it is not part of the package).
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const LICENCE_FILE = /^(licen[cs]e|copying)(\.(md|txt))?$/i;

/** The package folders (…/node_modules/<name>) that the bundle's inputs come from. */
function bundledPackageDirectories(metafile) {
	const directories = new Map();
	for (const input of Object.keys(metafile.inputs)) {
		const at = input.lastIndexOf("node_modules/");
		if (at < 0) continue;
		const parts = input.slice(at + "node_modules/".length).split("/");
		const name = parts[0].startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0];
		directories.set(name, `${input.slice(0, at)}node_modules/${name}`);
	}
	return [...directories.entries()].sort(([a], [b]) => a.localeCompare(b));
}

export async function writeThirdPartyNotices(distDirectory) {
	// One metafile per build that bundles third-party code (metafile-esm.json, metafile-cjs.json).
	const metafilePaths = readdirSync(distDirectory)
		.filter((file) => /^metafile-.*\.json$/.test(file))
		.map((file) => join(distDirectory, file));
	const inputs = {};
	for (const path of metafilePaths) {
		Object.assign(inputs, JSON.parse(readFileSync(path, "utf8")).inputs);
		rmSync(path);
	}
	const sections = bundledPackageDirectories({ inputs }).map(([name, directory]) => {
		const manifest = JSON.parse(readFileSync(join(directory, "package.json"), "utf8"));
		const licenceFile = readdirSync(directory).find((file) => LICENCE_FILE.test(file));
		if (!licenceFile) throw new Error(`${name} is bundled into dist but has no licence file in ${directory}`);
		const text = readFileSync(join(directory, licenceFile), "utf8").trim();
		return `## ${name}@${manifest.version} (${manifest.license})\n\n\`\`\`text\n${text}\n\`\`\``;
	});
	const notices = [
		"# Third-party notices",
		"",
		"dist/ bundles the following packages; each keeps its own licence, reproduced here.",
		"",
		sections.join("\n\n"),
		"",
	].join("\n");
	writeFileSync(join(distDirectory, "THIRD_PARTY_NOTICES.md"), notices);
	if (!existsSync(join(distDirectory, "THIRD_PARTY_NOTICES.md"))) throw new Error("notices were not written");
}
