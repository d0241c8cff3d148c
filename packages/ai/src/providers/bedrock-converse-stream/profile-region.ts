// The `region` of a profile in the shared AWS config file, read when a profile is named and no
// region is set otherwise (as the AWS SDK does). Node only: the file is read through
// process.getBuiltinModule, so bundles see no node: import; elsewhere there is no profile region.
// @see https://docs.aws.amazon.com/sdkref/latest/guide/file-format.html

import { environmentVariable } from "../../wire/environment.js";

type GetBuiltinModule = (id: string) => unknown;

/** The region of `profile` ("default" is `[default]`, others `[profile name]`) in this config file text. */
export function regionInConfigText(text: string, profile: string): string | undefined {
	let inProfile = false;
	for (const rawLine of text.split(/\r?\n/)) {
		const line = rawLine.replace(/(^|\s)[#;].*$/, "").trim();
		const section = /^\[\s*(.+?)\s*\]$/.exec(line);
		if (section) {
			const name = section[1].replace(/^profile\s+/, "");
			inProfile = name === profile;
			continue;
		}
		if (!inProfile) continue;
		const setting = /^region\s*=\s*(\S+)$/.exec(line);
		if (setting) return setting[1];
	}
	return undefined;
}

/** The profile's region from AWS_CONFIG_FILE or ~/.aws/config; undefined when there is none. */
export async function readProfileRegion(profile: string): Promise<string | undefined> {
	const getBuiltinModule = (globalThis.process as { getBuiltinModule?: GetBuiltinModule } | undefined)
		?.getBuiltinModule;
	if (!getBuiltinModule) return undefined;
	const fs = getBuiltinModule("node:fs") as { promises: { readFile(file: string, encoding: "utf8"): Promise<string> } };
	const os = getBuiltinModule("node:os") as { homedir(): string };
	const path = getBuiltinModule("node:path") as { join(...parts: string[]): string };
	const file = environmentVariable("AWS_CONFIG_FILE") ?? path.join(os.homedir(), ".aws", "config");
	try {
		return regionInConfigText(await fs.promises.readFile(file, "utf8"), profile);
	} catch {
		return undefined;
	}
}
