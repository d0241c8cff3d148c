export default ["packages/ai", "packages/agent", "tests"];
