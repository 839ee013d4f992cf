/** One HTTP(S) call to the server on loopback; TLS is checked against the certificate made for the case. */
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";

export interface Target {
  readonly port: number;
  /** The PEM the server serves, when config.yaml turns TLS on. */
  readonly ca?: string;
}

export interface Answer {
  readonly status: number;
  readonly body: string;
}

export function call(
  target: Target,
  method: string,
  path: string,
  options: { headers?: { [k: string]: string }; body?: unknown } = {},
): Promise<Answer> {
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  const headers = { ...(body ? { "content-type": "application/json" } : {}), ...options.headers };
  const common = { host: "127.0.0.1", port: target.port, method, path, headers, timeout: 60_000 };
  return new Promise((resolve, reject) => {
    const done = (res: IncomingMessage): void => {
      let text = "";
      res.on("data", (c: Buffer) => (text += c.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
    };
    const req = target.ca ? httpsRequest({ ...common, ca: target.ca }, done) : httpRequest(common, done);
    req.on("timeout", () => req.destroy(new Error(`${method} ${path}: no answer in 60 s`)));
    req.on("error", reject);
    req.end(body);
  });
}
