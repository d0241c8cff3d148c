export default [
	"packages/ai",
	"packages/agent",
	"packages/cli",
	"packages/proxy",
	"packages/ai-sdk",
	"packages/session-sqlite",
	"packages/session-postgres",
	"packages/mcp",
	"tests",
];
