// Run with plain `node` in the consumer project: whether node:child_process is loaded before
// @keel/mcp is imported, after, and after a stdio server is started (here one that exits at once,
// so the connection fails), printed as one JSON line for the test.
const childProcessLoaded = () => process.moduleLoadList.includes("NativeModule child_process");
const beforeImport = childProcessLoaded();
const { connectMcpServer } = await import("@keel/mcp");
const afterImport = childProcessLoaded();
let connectError = null;
try {
	const connection = await connectMcpServer({
		name: "exits-at-once",
		transport: { type: "stdio", command: process.execPath, args: ["-e", "process.exit(0)"] },
		connectTimeoutMs: 30_000,
	});
	await connection.close();
} catch (error) {
	connectError = error instanceof Error ? error.name : String(error);
}
console.log(
	JSON.stringify({ beforeImport, afterImport, afterStdio: childProcessLoaded(), connectFailed: connectError !== null }),
);
