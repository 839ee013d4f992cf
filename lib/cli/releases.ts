/** `llsd releases`: the supported server lines, one per row, the value `--release` takes first. */
import { RELEASES, type Release } from "../distributions/table";
import { schemaTagOf } from "../distributions/releases";

/** What each line covers, in words a user matches against their image tag. */
const COVERS: { readonly [r in Release]: string } = {
  "0.7": "Llama Stack 0.7.x (llamastack/distribution-* images; the Go operator's last default, 0.7.1)",
  "0.8": "OGX 0.8.x (ogx/distribution-* images)",
  "1.2":
    "OGX 1.2.x (ogxai/distribution-* images; 1.2.2 is what OpenShift AI 3.5 ships); 1.0 and 1.1 only with their own config (generating one is refused)",
  "1.3": "OGX 1.3.x (ogxai/distribution-* images; the default for new CRs), and with a status note 1.4+",
};

export function releaseLines(): string[] {
  return RELEASES.map((release) => `${release}\t${COVERS[release]}\tconfig format of ${schemaTagOf(release)}`);
}
