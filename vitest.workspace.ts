export default ["packages/ai", "packages/agent", "packages/cli", "packages/proxy", "tests"];
