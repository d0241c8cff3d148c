// What the catalogue's types cost a consumer: `tsc --noEmit` (strict, skipLibCheck) of a small file
// that imports @keel/ai and calls getModel, against the built declarations (packages/ai/dist) as they
// are, and against the same declarations with the catalogue interface cut down to the two providers
// the file uses. Each case runs in a fresh Node process that reports the CPU time it spent building
// and checking the program (CPU, not wall time: the machine may be busy). Goal: the whole catalogue
// costs at most +20 % over the cut-down one.
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { printTable } from "./measure.js";

const repositoryRoot = join(dirname(fileURLToPath(import.meta.url)), "../..");
const packageRoot = join(repositoryRoot, "packages/ai");
const RUNS = 7;
const BUDGET = 0.2;

const CONSUMER = `import { complete, getModel } from "@keel/ai";
const model = getModel("anthropic", "claude-sonnet-4-5");
const routed = getModel("openrouter", "anthropic/claude-sonnet-4.5");
export async function ask(question: string): Promise<string> {
	const reply = await complete(model, { messages: [{ role: "user", content: question, timestamp: 0 }] });
	return reply.content.map((block) => (block.type === "text" ? block.text : "")).join("") + routed.id;
}
`;

/** The declarations with GeneratedCatalogue holding only `providers`. */
function cutCatalogue(declarations: string, providers: string[]): string {
	const start = declarations.indexOf("interface GeneratedCatalogue {");
	const end = declarations.indexOf("\n}\n", start);
	if (start === -1 || end === -1) throw new Error("catalog-typecheck: no GeneratedCatalogue in dist/index.d.ts");
	const body = declarations.slice(start, end);
	// dts bundling indents with spaces: `    "anthropic": {` … `    };`.
	const kept = providers.map((provider) => {
		const block = new RegExp(`\\n([ \\t]+)${JSON.stringify(provider)}: \\{[\\s\\S]*?\\n\\1\\};`).exec(body);
		if (!block) throw new Error(`catalog-typecheck: no "${provider}" in GeneratedCatalogue`);
		return block[0];
	});
	return `${declarations.slice(0, start)}interface GeneratedCatalogue {${kept.join("")}${declarations.slice(end)}`;
}

/** A project whose node_modules/@keel/ai is a copy of dist with the given index.d.ts. */
function project(directory: string, declarations: string): string {
	const keel = join(directory, "node_modules", "@keel", "ai");
	mkdirSync(join(keel, "dist"), { recursive: true });
	cpSync(join(packageRoot, "dist"), join(keel, "dist"), { recursive: true });
	cpSync(join(packageRoot, "package.json"), join(keel, "package.json"));
	writeFileSync(join(keel, "dist", "index.d.ts"), declarations);
	// The declarations import the provider SDKs' and TypeBox's types from the package's own dependencies.
	symlinkSync(join(packageRoot, "node_modules"), join(keel, "node_modules"), "dir");
	writeFileSync(join(directory, "package.json"), '{ "type": "module" }');
	writeFileSync(join(directory, "consumer.ts"), CONSUMER);
	return join(directory, "consumer.ts");
}

function typecheckCpuMs(file: string, typescript: string): number {
	const script = `const ts = (await import(${JSON.stringify(typescript)})).default;
const before = process.cpuUsage();
const program = ts.createProgram([${JSON.stringify(file)}], { strict: true, noEmit: true, skipLibCheck: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, types: [] });
const errors = ts.getPreEmitDiagnostics(program);
if (errors.length > 0) throw new Error(ts.formatDiagnostics(errors, { getCanonicalFileName: (name) => name, getCurrentDirectory: () => "", getNewLine: () => "\\n" }));
const used = process.cpuUsage(before);
console.log((used.user + used.system) / 1000);`;
	const child = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
	if (child.status !== 0) throw new Error(`catalog-typecheck: tsc failed:\n${child.stderr}`);
	return Number(child.stdout.trim());
}

function median(values: number[]): number {
	const sorted = [...values].sort((left, right) => left - right);
	return sorted[Math.floor(sorted.length / 2)];
}

export default async function (): Promise<void> {
	const declarations = readFileSync(join(packageRoot, "dist", "index.d.ts"), "utf8");
	const typescript = createRequire(join(repositoryRoot, "package.json")).resolve("typescript");
	const directory = join(packageRoot, "node_modules", ".keel-bench-typecheck");
	rmSync(directory, { recursive: true, force: true });
	try {
		const cases: [string, string][] = [
			["the whole catalogue", project(join(directory, "whole"), declarations)],
			[
				"the catalogue cut to 2 providers",
				project(join(directory, "cut"), cutCatalogue(declarations, ["anthropic", "openrouter"])),
			],
		];
		const figures = cases.map(() => [] as number[]);
		// Interleaved, so load on the machine hits both cases alike.
		for (let run = 0; run < RUNS; run++) {
			cases.forEach(([, file], index) => {
				figures[index].push(typecheckCpuMs(file, typescript));
			});
		}
		const cut = median(figures[1]);
		printTable(
			cases.map(([name], index) => {
				const cpu = median(figures[index]);
				return {
					"tsc --noEmit of a getModel consumer, with": name,
					"CPU ms (median)": cpu,
					"over cut": index === 0 ? `${(((cpu - cut) / cut) * 100).toFixed(1)} % (goal ≤ ${BUDGET * 100} %)` : "-",
				};
			}),
		);
	} finally {
		rmSync(directory, { recursive: true, force: true });
	}
}
