// No module of the agent package imports itself back through others: the Agent knows storage only
// as an interface (agent-store.ts), the session code imports the Agent, never the reverse. Type
// imports count (a circle of types still ties the files together), and so does the package's own
// name, "@keel/agent-core", which the session types import for declaration merging.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const sourceRoot = join(dirname(fileURLToPath(import.meta.url)), "../src");

/** Every .ts file under the source root, with the files it imports or re-exports from. */
function importGraph(): Map<string, string[]> {
	const files = (readdirSync(sourceRoot, { recursive: true }) as string[])
		.filter((name) => name.endsWith(".ts"))
		.map((name) => join(sourceRoot, name));
	const graph = new Map<string, string[]>();
	for (const file of files) {
		const source = readFileSync(file, "utf8");
		const targets: string[] = [];
		for (const match of source.matchAll(/^(?:import|export)\s[^;]*?\sfrom\s+"([^"]+)"/gms)) {
			const specifier = match[1];
			if (specifier === "@keel/agent-core") targets.push(join(sourceRoot, "index.ts"));
			else if (specifier.startsWith(".")) targets.push(resolve(dirname(file), specifier.replace(/\.js$/, ".ts")));
		}
		graph.set(
			file,
			targets.filter((target) => files.includes(target)),
		);
	}
	return graph;
}

/** The strongly connected components with more than one file (Tarjan), as paths under src/. */
function importCircles(graph: Map<string, string[]>): string[][] {
	let counter = 0;
	const index = new Map<string, number>();
	const low = new Map<string, number>();
	const stack: string[] = [];
	const onStack = new Set<string>();
	const circles: string[][] = [];
	const visit = (file: string): void => {
		index.set(file, counter);
		low.set(file, counter++);
		stack.push(file);
		onStack.add(file);
		for (const target of graph.get(file) ?? []) {
			if (!index.has(target)) {
				visit(target);
				low.set(file, Math.min(low.get(file) as number, low.get(target) as number));
			} else if (onStack.has(target)) {
				low.set(file, Math.min(low.get(file) as number, index.get(target) as number));
			}
		}
		if (low.get(file) !== index.get(file)) return;
		const component: string[] = [];
		let member: string;
		do {
			member = stack.pop() as string;
			onStack.delete(member);
			component.push(relative(sourceRoot, member));
		} while (member !== file);
		if (component.length > 1) circles.push(component.sort());
	};
	for (const file of graph.keys()) if (!index.has(file)) visit(file);
	return circles;
}

describe("import circles in packages/agent/src", () => {
	it("there are none, type imports and the package's own name included", () => {
		expect(importCircles(importGraph())).toEqual([]);
	});

	it("the walker finds a circle when there is one (control)", () => {
		const graph = importGraph();
		const agent = join(sourceRoot, "agent.ts");
		const binding = join(sourceRoot, "session/session-binding.ts");
		graph.set(agent, [...(graph.get(agent) ?? []), binding]);
		graph.set(binding, [...(graph.get(binding) ?? []), agent]);
		expect(importCircles(graph).some((circle) => circle.includes("agent.ts"))).toBe(true);
	});

	it("agent.ts imports nothing from session/", () => {
		const graph = importGraph();
		const imported = (graph.get(join(sourceRoot, "agent.ts")) ?? []).map((file) => relative(sourceRoot, file));
		expect(imported.filter((file) => file.startsWith("session/"))).toEqual([]);
		expect(imported).toContain("agent-store.ts");
	});
});
