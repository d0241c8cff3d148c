// The quick start's demo, run as `npm run quickstart` runs it on a machine without keys: the agent
// answers with its tools on the faux provider, the session is resumed from disk, and the
// conversation's facts come back as a validated object. It exits 0.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const repositoryRoot = fileURLToPath(new URL("../..", import.meta.url));

describe("the demo", () => {
	it("runs the agent, resumes its session from disk and prints a structured answer, without a key", () => {
		const { KEEL_DEMO_MODEL, ...environment } = process.env;
		const run = spawnSync(process.execPath, ["scripts/demo.mjs"], {
			cwd: repositoryRoot,
			env: { ...environment, NO_COLOR: "1" },
			encoding: "utf8",
			timeout: 60_000,
		});
		expect(run.stderr).toBe("");
		expect(run.status).toBe(0);
		expect(run.stdout).toContain('tool  › get_weather {"city":"Lisbon"}');
		expect(run.stdout).toContain("tool  ✓ calculate → 42");
		expect(run.stdout).toMatch(/resumed session [0-9a-f]{8} from disk: 5 messages/);
		expect(run.stdout).toContain('You asked: "What\'s the weather in Lisbon, and what is 21 multiplied by 2?"');
		expect(run.stdout).toContain('facts › {"city":"Lisbon","temperatureC":22,"conditions":"sunny","product":42}');
	});
});
