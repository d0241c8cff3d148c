// @keel/ai/credentials/node: the Node-only half of credentials: the file store, the loopback
// server for browser logins, and the logins that use it.
export { writeFileAtomically } from "./atomic-write.js";
export {
	type BrowserLoginOptions,
	type GoogleLoginOptions,
	loginWithGoogle,
	loginWithOpenRouter,
	type OpenRouterLoginOptions,
} from "./browser-login.js";
export { defaultCredentialsPath } from "./default-path.js";
export { type FileLockOptions, withFileLock } from "./file-lock.js";
export { createFileCredentialStore, type FileCredentialStore, type FileCredentialStoreOptions } from "./file-store.js";
export { type LoopbackServer, type LoopbackServerOptions, startLoopbackServer } from "./loopback-server.js";
export { openInBrowser } from "./open-browser.js";
