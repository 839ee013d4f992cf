/** Base config texts for fixture images. */

/** A small but real-looking config.yaml, tagged with `marker` so a test can tell sources apart. */
export function configYaml(marker: string): string {
  return [
    "version: 2",
    `image_name: ${marker}`,
    "apis: [inference]",
    "providers:",
    "  inference:",
    "  - provider_id: vllm",
    "    provider_type: remote::vllm",
    "    config: {base_url: http://vllm:8000/v1}",
    "",
  ].join("\n");
}

/** Padded with provider entries past `minBytes`, for the layer label (labels that large are impractical). */
export function largeConfigYaml(marker: string, minBytes: number): string {
  const lines = [configYaml(marker).trimEnd()];
  for (let i = 0; lines.join("\n").length < minBytes; i++) {
    lines.push(
      `  - provider_id: filler-${i}`,
      "    provider_type: remote::openai",
      `    config: {api_key: "\${env.FILLER_${i}_API_KEY:=}", note: "${"x".repeat(64)}"}`,
    );
  }
  return `${lines.join("\n")}\n`;
}

export const b64 = (text: string): string => Buffer.from(text).toString("base64");
