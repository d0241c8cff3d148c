export default ["packages/ai", "packages/agent", "packages/cli", "tests"];
