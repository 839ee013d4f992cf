/** extractFile() on in-memory responses: chunking, compression sniffing, bounds, odd entries. */
import * as tar from "tar-stream";
import { httpOptions } from "../../lib/oci/client";
import { startDeadline } from "../../lib/oci/http";
import { extractFile, type ExtractRequest } from "../../lib/oci/layer";
import type { Result } from "../../lib/oci/types";
import { layerOf, sha256 } from "./support/images";

const CONFIG = "version: 2\nimage_name: layer-test\n";

/** A response body delivered in chunks of `size` bytes (1 = byte by byte). */
function response(bytes: Buffer, size: number): Response {
  let offset = 0;
  return new Response(
    new ReadableStream<Uint8Array>({
      pull(controller) {
        if (offset >= bytes.length) return controller.close();
        controller.enqueue(bytes.subarray(offset, (offset += size)));
      },
    }),
  );
}

async function extract(
  bytes: Buffer,
  options: Partial<ExtractRequest> & { chunk?: number } = {},
): Promise<Result<string>> {
  const deadline = startDeadline(4000);
  try {
    const request = {
      path: "app/config.yaml",
      digest: sha256(bytes),
      maxFileBytes: 1024,
      maxLayerBytes: 1 << 20,
      ...options,
    };
    const result = await extractFile(
      response(bytes, options.chunk ?? 1 << 16),
      request,
      { deadline, http: httpOptions({}) },
      "registry.test",
    );
    return result.ok ? { ok: true, value: result.value.toString() } : result;
  } finally {
    deadline.dispose();
  }
}

test.each([
  ["gzip, byte by byte", { gzip: true }, 1],
  ["plain tar, byte by byte", { gzip: false }, 1],
  ["truncated gzip tar, 3-byte chunks", { truncated: true }, 3],
  ["truncated plain tar, one chunk", { gzip: false, truncated: true }, 1 << 16],
])("%s", async (_name, layerOptions, chunk) => {
  const bytes = await layerOf({ "etc/a": "a", "app/config.yaml": CONFIG }, layerOptions);
  expect(await extract(bytes, { chunk })).toEqual({ ok: true, value: CONFIG });
});

test("a file above maxFileBytes is refused, a layer above maxLayerBytes is cut off", async () => {
  const bytes = await layerOf({ "app/config.yaml": "x".repeat(2048) });
  expect(await extract(bytes)).toMatchObject({
    ok: false,
    error: { reason: "ImageContentTooLarge", message: "app/config.yaml is larger than the 1024-byte limit" },
  });
  expect(await extract(bytes, { maxLayerBytes: 64, chunk: 16 })).toMatchObject({
    ok: false,
    error: { reason: "ImageContentTooLarge" },
  });
});

test("a symlink at the path is not followed", async () => {
  const pack = tar.pack();
  pack.entry({ name: "app/config.yaml", type: "symlink", linkname: "/etc/passwd" });
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of pack) chunks.push(chunk as Buffer);
  const result = await extract(Buffer.concat(chunks));
  expect(result).toMatchObject({
    ok: false,
    error: { reason: "InvalidImage", message: expect.stringContaining("is a symlink, not a regular file") },
  });
});

test("zstd layers are refused with a reason; a wrong digest wins over a found file", async () => {
  expect(await extract(Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0, 0]))).toMatchObject({
    ok: false,
    error: { message: expect.stringContaining("zstd") },
  });
  const bytes = await layerOf({ "app/config.yaml": CONFIG });
  expect(await extract(bytes, { digest: sha256(Buffer.from("other")) })).toMatchObject({
    ok: false,
    error: { reason: "DigestMismatch", transient: true },
  });
});
