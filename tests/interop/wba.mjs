// The interop partner's side (issue 38): Cloudflare's reference package `web-bot-auth`, as the
// npm registry publishes it, signs and verifies Web Bot Auth requests for
// tests/interop/test_interop.py. One JSON request on standard input, one JSON answer on
// standard output; it shares no code with robotsrules.
import { signatureHeaders, verify } from "web-bot-auth";
import { signerFromJWK, verifierFromJWK } from "web-bot-auth/crypto";

async function readStdin() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return JSON.parse(Buffer.concat(chunks).toString("utf-8"));
}

async function main() {
  const job = await readStdin();
  if (job.action === "sign") {
    const headers = { ...job.headers };
    const request = new Request(job.url, { method: job.method, headers });
    const signer = await signerFromJWK(job.jwk);
    const now = new Date(job.created * 1000);
    const params = { created: now, expires: new Date(job.expires * 1000), key: job.label };
    if (job.components) {
      // a component with parameters is { name, parameters: Map } for http-message-sig
      params.components = job.components.map((c) => typeof c === "string" ? c
        : { name: c.name, parameters: new Map(Object.entries(c.parameters)) });
    }
    const signed = await signatureHeaders(request, signer, params);
    return { headers: { ...headers, ...signed } };
  }
  if (job.action === "verify") {
    const request = new Request(job.url, { method: job.method, headers: job.headers });
    const check = await verifierFromJWK(job.jwk);
    let base = null;
    try {
      await verify(request, async (data, signature, params) => {
        base = data;
        return check(data, signature, params);
      });
      return { verified: true, base };
    } catch (error) {
      return { verified: false, error: String(error && error.message || error), base };
    }
  }
  throw new Error(`unknown action ${job.action}`);
}

main().then(
  (answer) => process.stdout.write(JSON.stringify(answer) + "\n"),
  (error) => {
    process.stderr.write(`wba.mjs: ${error && error.stack || error}\n`);
    process.exit(2);
  },
);
