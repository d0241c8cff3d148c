// Node: runs every API's case with the built `@keel/ai` and prints the summaries as JSON.
// Usage: node main.mjs '<ServerUrls as JSON>'
import { runStreamCases, type ServerUrls } from "../stream-cases.js";

const urls = JSON.parse(process.argv[2] ?? "{}") as ServerUrls;
process.stdout.write(JSON.stringify(await runStreamCases(urls)));
