// Checks an AWS Signature Version 4 the way the service does: the canonical request rebuilt from what
// arrived, the string to sign, the key derived from the secret, and the HMAC compared.
// @see https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-create-signed-request.html
import { createHash, createHmac } from "node:crypto";

const hash = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");
const hmac = (key: string | Buffer, data: string) => createHmac("sha256", key).update(data).digest();

/** Each path segment URI-encoded once more, as every service but S3 expects. */
function canonicalPath(path: string): string {
	return path
		.split("/")
		.map((segment) =>
			encodeURIComponent(segment).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`),
		)
		.join("/");
}

/** True when `headers.authorization` is a valid SigV4 signature of this request with `secretAccessKey`. */
export function verifySigV4(
	request: { method: string; path: string; headers: Record<string, string>; rawBody: Buffer },
	secretAccessKey: string,
): boolean {
	const match =
		/^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(
			request.headers.authorization ?? "",
		);
	if (!match) return false;
	const [, , date, region, service, signedHeaders, signature] = match;
	const [pathOnly, query = ""] = request.path.split("?");
	const canonicalHeaders = signedHeaders
		.split(";")
		.map((name) => `${name}:${(request.headers[name] ?? "").trim().replace(/\s+/g, " ")}\n`)
		.join("");
	// The payload hash is of the bytes that arrived; a header claiming another hash fails.
	const payloadHash = hash(request.rawBody);
	const claimed = request.headers["x-amz-content-sha256"];
	if (claimed !== undefined && claimed !== payloadHash) return false;
	const canonicalRequest = [
		request.method,
		canonicalPath(pathOnly),
		query,
		canonicalHeaders,
		signedHeaders,
		payloadHash,
	].join("\n");
	const scope = `${date}/${region}/${service}/aws4_request`;
	const stringToSign = ["AWS4-HMAC-SHA256", request.headers["x-amz-date"], scope, hash(canonicalRequest)].join("\n");
	const key = hmac(hmac(hmac(hmac(`AWS4${secretAccessKey}`, date), region), service), "aws4_request");
	return createHmac("sha256", key).update(stringToSign).digest("hex") === signature;
}
