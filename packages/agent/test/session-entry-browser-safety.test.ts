// @keel/agent-core/session is loaded by browsers and Workers; only its /jsonl entry may touch Node.
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const sessionSource = fileURLToPath(new URL("../src/session/", import.meta.url));

describe("the session entry", () => {
	it("imports no node: module and nothing from the JSONL store", () => {
		const files = readdirSync(sessionSource).filter((name) => name.endsWith(".ts"));
		expect(files).toContain("index.ts");
		for (const name of files) {
			const imports = [...readFileSync(`${sessionSource}${name}`, "utf8").matchAll(/from "([^"]+)"/g)].map(
				(match) => match[1],
			);
			expect(
				imports.filter((specifier) => specifier.startsWith("node:") || specifier.includes("jsonl")),
				name,
			).toEqual([]);
		}
	});
});
