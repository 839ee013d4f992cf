/**
 * One HTTPS call as Metacontroller or the apiserver makes it: the server verified against
 * `ca` under `servername` (the host of the URL it dials), optionally a client certificate and
 * a bearer token. A refused handshake rejects; an answer resolves with its status and body.
 */
import { request } from "node:https";

export interface HttpsCall {
  readonly port: number;
  readonly servername: string;
  readonly ca: Buffer;
  readonly path: string;
  readonly body?: unknown;
  readonly token?: string;
  readonly client?: { readonly cert: Buffer; readonly key: Buffer };
}

export function httpsCall(call: HttpsCall): Promise<{ status: number; body: string }> {
  const payload = call.body === undefined ? undefined : JSON.stringify(call.body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port: call.port,
        path: call.path,
        method: payload === undefined ? "GET" : "POST",
        servername: call.servername,
        ca: call.ca,
        agent: false, // a fresh handshake on every call
        ...(call.client ? { cert: call.client.cert, key: call.client.key } : {}),
        headers: {
          ...(payload === undefined ? {} : { "content-type": "application/json" }),
          ...(call.token === undefined ? {} : { authorization: `Bearer ${call.token}` }),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}
