// `keel serve`: @keel/proxy's Node handler on a local port with its OpenAI-compatible endpoint on,
// so any OpenAI client (base URL http://127.0.0.1:<port>/v1) can call the allowed models with the
// keys keel already resolves (--key, KEEL_API_KEY, keel login, the providers' variables). The
// clients prove themselves with a bearer token: --token, KEEL_PROXY_TOKEN, or one made up and printed.
import { randomBytes, timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";
import type { Api, Model } from "@keel/ai";
import { resolveCallCredentials } from "../api-key.js";
import { type Command, EXIT_FAILURE, EXIT_SUCCESS, parseCommandArguments, UsageError } from "../command.js";
import { selectModel } from "../model-selection.js";

const help = `Usage: keel serve [--port n] [--host address] [--allow model]… [--token token]

Runs a local OpenAI-compatible endpoint: POST /v1/chat/completions and GET /v1/models at
http://<host>:<port>/v1, and Keel's own proxy protocol at /api/stream. Clients send the token as
\`Authorization: Bearer <token>\` (the apiKey of an OpenAI SDK). Models are named provider/id; only
the allowed ones are served, with the keys keel uses itself. Ctrl-C (or SIGTERM) stops it.

Options:
      --port n           the port (default 8080; 0 picks a free one)
      --host address     the address to listen on (default 127.0.0.1: this machine only)
      --allow model      a model clients may call, e.g. anthropic/claude-sonnet-4-6 or an alias;
                         repeatable (default: the default model)
      --token token      the token clients must send (default KEEL_PROXY_TOKEN, else a new one,
                         printed at start)
  -m, --model model      the same as --allow
      --base-url url     serve the allowed models from this OpenAI-compatible server (e.g. Ollama)
      --api name         the API that server speaks (openai-completions by default)
      --key key          the key sent upstream (else KEEL_API_KEY, keel login, the provider's variable)
  -h, --help             show this help

Exit codes: 0 stopped with Ctrl-C or SIGTERM, 1 the port could not be opened, 2 a wrong command line.

Examples:
  keel serve --allow openai/gpt-4o-mini --allow anthropic/claude-sonnet-4-6
  KEEL_PROXY_TOKEN=secret keel serve --port 9000
  keel serve --allow qwen3:8b --base-url http://127.0.0.1:11434/v1

Then, in any OpenAI client: base URL http://127.0.0.1:8080/v1, API key the token, model
"openai/gpt-4o-mini" (custom/<id> for a --base-url model).`;

const SERVE_OPTIONS = {
	port: { type: "string" },
	host: { type: "string" },
	allow: { type: "string", multiple: true },
	model: { type: "string", short: "m", multiple: true },
	token: { type: "string" },
	"base-url": { type: "string" },
	api: { type: "string" },
	key: { type: "string" },
} as const;

export const serveCommand: Command = {
	name: "serve",
	summary: "run a local OpenAI-compatible endpoint for the allowed models (the proxy)",
	help,
	async run(args, terminal) {
		const { values, positionals } = parseCommandArguments("serve", args, SERVE_OPTIONS);
		if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`, "serve");
		const port = parsePort(values.port);
		const host = values.host ?? "127.0.0.1";
		const names = [...(values.allow ?? []), ...(values.model ?? [])];
		const models = (names.length > 0 ? names : [undefined]).map((name) =>
			selectModel("serve", { model: name, baseUrl: values["base-url"], api: values.api }, terminal.env),
		);
		const given = values.token ?? terminal.env.KEEL_PROXY_TOKEN;
		if (given !== undefined && given.trim() === "") throw new UsageError("--token must not be empty", "serve");
		const token = given ?? randomBytes(24).toString("base64url");
		const expected = Buffer.from(token);

		// Loaded here, so other commands never load the proxy.
		const { createProxyHandler } = await import("@keel/proxy/node");
		const handler = createProxyHandler({
			models,
			openAICompatible: true,
			authenticate: (sent) => {
				const candidate = Buffer.from(sent);
				return candidate.length === expected.length && timingSafeEqual(candidate, expected);
			},
			prepareOptions: async (options, { model }) => ({
				...options,
				...(await resolveCallCredentials(model as Model<Api>, values.key, terminal.env)),
			}),
			onError: (error) => {
				terminal.stderr.write(`keel serve: ${error instanceof Error ? error.message : String(error)}\n`);
			},
		});
		const server = createServer((request, response) => void handler(request, response));
		try {
			await new Promise<void>((resolve, reject) => {
				server.once("error", reject);
				server.listen(port, host, () => resolve());
			});
		} catch (error) {
			const message = error instanceof Error ? error.message : String(error);
			terminal.stderr.write(`keel serve: cannot listen on ${host}:${port}: ${message} (try another --port)\n`);
			return EXIT_FAILURE;
		}
		const address = server.address();
		const actualPort = typeof address === "object" && address ? address.port : port;
		const shownHost = host.includes(":") ? `[${host}]` : host;
		const servedNames = models.map((model) => `${model.provider}/${model.id}`).join(", ");
		// The stop signals are listened for before the base URL is printed: a program that stops the
		// server as soon as it reads the URL must not meet Node's default SIGTERM (an exit by signal).
		const stopped = new Promise<void>((resolve) => {
			const stop = () => {
				process.off("SIGTERM", stop);
				stopListening();
				resolve();
			};
			const stopListening = terminal.onInterrupt(stop);
			process.once("SIGTERM", stop);
		});
		// One write, the base URL last: a program that waits for it has the token already.
		const tokenLine = given === undefined ? `Token (the API key clients send): ${token}\n` : "";
		terminal.stderr.write(
			`Serving ${servedNames} (Ctrl-C stops it)\n${tokenLine}OpenAI base URL: http://${shownHost}:${actualPort}/v1\n`,
		);

		await stopped;
		// Requests in flight are ended with their connections: an answer being streamed stops here.
		server.closeAllConnections();
		await new Promise<void>((resolve) => server.close(() => resolve()));
		terminal.stderr.write("Stopped.\n");
		return EXIT_SUCCESS;
	},
};

function parsePort(value: string | undefined): number {
	if (value === undefined) return 8080;
	const port = Number(value);
	if (!Number.isInteger(port) || port < 0 || port > 65535) {
		throw new UsageError(`--port expects a whole number from 0 to 65535, got "${value}"`, "serve");
	}
	return port;
}
