// A CommonJS file in the consumer project. Both packages are ES modules; their exports use the
// "default" condition, so Node's require(esm) (Node 20.19+, 22.12+) loads them, and it loads the
// same module instance as `import` (one provider registry). Older Node versions throw
// ERR_REQUIRE_ESM, whose message says to use import() instead.
const result = {};
try {
	const ai = require("@keel/ai");
	const agentCore = require("@keel/agent-core");
	result.required = { stream: typeof ai.stream, Agent: typeof agentCore.Agent };
} catch (error) {
	result.error = { code: error.code, message: error.message };
}
import("@keel/ai").then((imported) => {
	if (result.required) result.sameModuleAsImport = imported.stream === require("@keel/ai").stream;
	console.log(JSON.stringify(result));
});
