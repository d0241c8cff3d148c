// What the registry loads on this API's first call (register-builtins.ts): the definition only. A bundler
// keeps every export of a module loaded with import(), so loading index.ts would keep all of its exports.
export { openAICodexResponsesProvider } from "./index.js";
