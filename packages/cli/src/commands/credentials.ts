// `keel keys`, `keel login <provider>`, `keel logout <provider>`: which credentials are found and
// where (masked), and the credential store they are saved in.
import { existsSync } from "node:fs";
import { getProviders } from "@keel/ai";
import { listCredentials, loginWithGitHubDeviceFlow } from "@keel/ai/credentials";
import { loginWithGoogle, loginWithOpenRouter, openInBrowser } from "@keel/ai/credentials/node";
import {
	type Command,
	EXIT_FAILURE,
	EXIT_INTERRUPTED,
	EXIT_SUCCESS,
	parseCommandArguments,
	UsageError,
} from "../command.js";
import { credentialsPath, openCredentialStore } from "../credential-store.js";
import { readSecret } from "../secret-input.js";
import { formatTable } from "../table.js";

const storeNote = `Credentials are saved in $KEEL_CREDENTIALS_FILE, default ~/.config/keel/credentials.json
(readable by you only).`;

export const keysCommand: Command = {
	name: "keys",
	summary: "show which API keys and logins are found (masked)",
	help: `Usage: keel keys [--json]

Lists every credential Keel would use, per provider: saved by \`keel login\`, or found in an
environment variable (ANTHROPIC_API_KEY, OPENAI_API_KEY, …), or ambient (AWS, Google ADC). Keys are
masked. A saved credential wins over the environment; "used" says which one a call takes.

${storeNote}

Options:
      --json      a JSON array
  -h, --help      show this help

Examples:
  keel keys
  keel keys --json | jq -r '.[].provider'`,
	async run(args, terminal) {
		const { values, positionals } = parseCommandArguments("keys", args, { json: { type: "boolean" } });
		if (positionals.length > 0) throw new UsageError(`unexpected arguments: ${positionals.join(" ")}`, "keys");
		// listCredentials reads the environment variables of this process (terminal.env in the real CLI).
		const found = await listCredentials({ store: openCredentialStore(terminal.env) });
		if (values.json) {
			terminal.stdout.write(`${JSON.stringify(found, null, 2)}\n`);
			return EXIT_SUCCESS;
		}
		if (found.length === 0) {
			terminal.stderr.write(
				"No keys found. Set a provider's variable (e.g. ANTHROPIC_API_KEY) or run keel login <provider>.\n",
			);
			return EXIT_SUCCESS;
		}
		const table = formatTable(
			[
				{ header: "provider", value: (entry) => entry.provider },
				{
					header: "source",
					value: (entry) => (entry.source === "store" ? "keel login" : (entry.variable ?? "environment")),
				},
				{ header: "kind", value: (entry) => entry.kind },
				{ header: "key", value: (entry) => entry.masked },
				{ header: "used", value: (entry) => (entry.used ? "yes" : "no") },
				{
					header: "expires",
					value: (entry) => (entry.expiresAt === undefined ? "" : new Date(entry.expiresAt).toLocaleString("sv-SE")),
				},
			],
			found,
		);
		terminal.stdout.write(`${table}\n`);
		return EXIT_SUCCESS;
	},
};

export const loginCommand: Command = {
	name: "login",
	summary: "save an API key or log in to a provider",
	help: `Usage: keel login <provider> [options]

Saves a credential for a provider, used by every keel command (and found by \`keel keys\`).

  openrouter       opens OpenRouter's login page in a browser; OpenRouter gives Keel a key of
                   your account (PKCE, nothing to register). Pipe a key instead to save that one.
  github-copilot   GitHub's device flow with your own OAuth app: --client-id is required; you
                   type the code shown at the GitHub page it names.
  google-vertex    Google OAuth with your own OAuth client: --client-id (and --client-secret for a
                   "web" client); the token is refreshed when it expires.
  any other        type the API key (it is not shown), or pipe it on stdin.

Subscription tokens issued to other products (Claude Pro/Max, ChatGPT) are not obtained by Keel:
save the token you hold as the key, or set its environment variable.

${storeNote}

Options:
      --client-id id       the OAuth client id (github-copilot, google-vertex)
      --client-secret s    the OAuth client secret (google-vertex, "web" clients)
  -h, --help               show this help

Examples:
  keel login anthropic
  echo "$OPENAI_API_KEY" | keel login openai
  keel login openrouter
  keel login github-copilot --client-id Iv1.0123456789abcdef`,
	async run(args, terminal) {
		const { values, positionals } = parseCommandArguments("login", args, {
			"client-id": { type: "string" },
			"client-secret": { type: "string" },
		});
		const provider = requireProvider("login", positionals);
		const store = openCredentialStore(terminal.env);
		const controller = new AbortController();
		const stopListening = terminal.onInterrupt(() => controller.abort());
		const openUrl = async (url: string) => {
			terminal.stderr.write(`Opening ${url}\n`);
			if (!(await openInBrowser(url))) terminal.stderr.write("Open that address in a browser to continue.\n");
		};
		try {
			const piped = terminal.stdin.isTTY !== true;
			if (provider === "openrouter" && !piped) {
				await store.set(provider, await loginWithOpenRouter({ openUrl, signal: controller.signal }));
			} else if (provider === "github-copilot" && values["client-id"] !== undefined) {
				const credential = await loginWithGitHubDeviceFlow({
					clientId: values["client-id"],
					signal: controller.signal,
					onUserCode: (authorization) => {
						terminal.stderr.write(
							`Open ${authorization.verificationUri} and enter the code ${authorization.userCode}\n`,
						);
					},
				});
				await store.set(provider, credential);
			} else if (provider === "google-vertex" && values["client-id"] !== undefined) {
				const credential = await loginWithGoogle({
					clientId: values["client-id"],
					clientSecret: values["client-secret"],
					openUrl,
					signal: controller.signal,
				});
				await store.set(provider, credential);
			} else {
				if (values["client-id"] !== undefined) {
					throw new UsageError(`--client-id applies to github-copilot and google-vertex, not ${provider}`, "login");
				}
				const key = await readSecret(terminal, `API key for ${provider} (not shown): `);
				if (controller.signal.aborted) return EXIT_INTERRUPTED;
				if (key === undefined) {
					terminal.stderr.write("No key given; nothing saved.\n");
					return EXIT_FAILURE;
				}
				await store.set(provider, { type: "api-key", key });
			}
		} catch (error) {
			if (controller.signal.aborted) {
				terminal.stderr.write("Login cancelled.\n");
				return EXIT_INTERRUPTED;
			}
			throw error;
		} finally {
			stopListening();
		}
		terminal.stderr.write(`Saved the credential for ${provider} in ${store.path}.\n`);
		return EXIT_SUCCESS;
	},
};

export const logoutCommand: Command = {
	name: "logout",
	summary: "remove a provider's saved credential",
	help: `Usage: keel logout <provider>

Removes the credential \`keel login\` saved for a provider. Environment variables are not touched:
\`keel keys\` shows what is still found.

${storeNote}

Options:
  -h, --help      show this help

Examples:
  keel logout anthropic
  keel logout openrouter`,
	async run(args, terminal) {
		const { positionals } = parseCommandArguments("logout", args, {});
		const provider = requireProvider("logout", positionals);
		const path = credentialsPath(terminal.env);
		const removed = existsSync(path) && (await openCredentialStore(terminal.env).delete(provider));
		terminal.stderr.write(
			removed ? `Removed the saved credential for ${provider}.\n` : `No saved credential for ${provider} in ${path}.\n`,
		);
		return EXIT_SUCCESS;
	},
};

function requireProvider(commandName: string, positionals: string[]): string {
	if (positionals.length !== 1) {
		throw new UsageError(`expected one provider, e.g. keel ${commandName} anthropic`, commandName);
	}
	const provider = positionals[0];
	// Keys for a custom server may be saved under any name, but a typo of a known provider is likely.
	if (!/^[a-z0-9][a-z0-9._-]*$/.test(provider)) {
		throw new UsageError(`"${provider}" is not a provider id (known: ${getProviders().join(", ")})`, commandName);
	}
	return provider;
}
