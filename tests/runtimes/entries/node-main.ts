// Node, Deno and Bun: runs every API's case with the installed `@keel/ai` and prints the
// summaries as JSON. Usage: <runtime> main.mjs '<ServerUrls as JSON>'
import process from "node:process";
import { runStreamCases, type ServerUrls } from "../stream-cases.js";

const urls = JSON.parse(process.argv[process.argv.length - 1] ?? "{}") as ServerUrls;
process.stdout.write(JSON.stringify(await runStreamCases(urls)));
