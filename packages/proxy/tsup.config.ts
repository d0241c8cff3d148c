import { defineConfig } from "tsup";

export default defineConfig({
	// The root is the client (browser-safe); server is the fetch handler; node is the Node handler.
	entry: { index: "src/index.ts", server: "src/server.ts", node: "src/node.ts", redis: "src/redis.ts" },
	format: ["esm"],
	sourcemap: true,
	clean: true,
	target: "node20",
	external: [/^@keel\//, "ioredis"],
});
