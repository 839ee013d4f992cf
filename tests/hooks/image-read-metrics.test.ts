/**
 * `llsd_image_reads_total` as the service wires it: the production handlers (registry settings
 * from the environment) count each base-config read of /sync in the app's /metrics, against a
 * real registry (Debian docker-registry on loopback). A spec with providers needs the image's
 * base config; one without uses the image's own and reads nothing.
 */
import request from "supertest";
import { createApp } from "../../hooks/app";
import { productionHandlers } from "../../hooks/handlers";
import { createLogger } from "../../hooks/logger";
import { createMetrics } from "../../hooks/metrics";
import { b64, configYaml } from "../oci/support/configs";
import { pushImage } from "../oci/support/images";
import { startRegistry, type Registry } from "../oci/support/registry";
import { aParent, aRequest } from "../sync-builders";

let registry: Registry;
const VLLM = "http://vllm:8000";

beforeAll(async () => {
  registry = await startRegistry();
  const labels = { "io.llamastack.config.base64": b64(configYaml("counted")) };
  await pushImage({ url: registry.url }, "llsd/counted", "0.8.0", { labels });
}, 60_000);

afterAll(async () => {
  await registry?.stop();
});

it("counts a registry fetch, then a cache hit, then a failure (the backoff: tests/oci/cache.test.ts)", async () => {
  const logger = createLogger({ level: "silent" });
  const metrics = createMetrics();
  const env = { INSECURE_REGISTRIES: registry.host, LLSD_LIVE_STATUS: "false" };
  const app = createApp({ handlers: productionHandlers(logger, env, metrics), logger, metrics, isReady: () => true });
  const syncImage = (image: string) =>
    request(app)
      .post("/sync")
      .send(
        aRequest(aParent({ distribution: { image }, providers: { inference: { provider: "vllm", endpoint: VLLM } } })),
      )
      .expect(200);
  for (const image of ["llsd/counted:0.8.0", "llsd/counted:0.8.0", "llsd/absent:1"])
    await syncImage(`${registry.host}/${image}`);
  const text = (await request(app).get("/metrics").expect(200)).text;
  expect(text.split("\n").filter((line) => line.startsWith("llsd_image_reads_total{"))).toEqual([
    'llsd_image_reads_total{read="base_config",result="fetched"} 1',
    'llsd_image_reads_total{read="base_config",result="cached"} 1',
    'llsd_image_reads_total{read="base_config",result="failed"} 1',
  ]);
});
