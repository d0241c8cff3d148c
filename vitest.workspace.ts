export default [
	"packages/ai",
	"packages/agent",
	"packages/cli",
	"packages/session-sqlite",
	"packages/session-postgres",
	"packages/mcp",
	"tests",
];
