// The page script: exposes the cases to the test, which calls them with page.evaluate.
import { runStreamCases } from "../stream-cases.js";

(globalThis as { runStreamCases?: typeof runStreamCases }).runStreamCases = runStreamCases;
