/** Secret variable names: `upperSnake` takes a shortcut for plain names, with the same result as the whole rule. */
import fc from "fast-check";
import { providerSecretEnv, snakeRewrite, upperSnake } from "../../lib/env-names";

describe("upperSnake()", () => {
  it.each([
    ["vllm-primary", "VLLM_PRIMARY"],
    ["apiKey", "API_KEY"],
    ["api_key", "API_KEY"],
    ["token", "TOKEN"],
    ["a--b", "A_B"],
    ["-lead_and_trail-", "LEAD_AND_TRAIL"],
    ["vLLM2Main", "V_LLM2_MAIN"],
    ["über.key", "BER_KEY"],
    ["", ""],
  ])("%j → %j", (text, name) => {
    expect(upperSnake(text)).toBe(name);
  });

  it("gives what the whole rule gives, for any text", () => {
    const char = fc.constantFrom(..."abzAZ09-_. é");
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: char, maxLength: 12 }), fc.string()), (text) => {
        expect(upperSnake(text)).toBe(snakeRewrite(text));
      }),
      { numRuns: 5000 },
    );
  });

  it("names a provider's Secret variable from its id and field", () => {
    expect(providerSecretEnv("vllm-main", "apiKey")).toMatch(/_VLLM_MAIN_API_KEY$/);
  });
});
