/** Plain CommonJS jest + ts-jest (DESIGN §12). Type checking runs once in `tsc --noEmit`. */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/tests"],
  testMatch: ["**/*.test.ts"],
  transform: { "^.+\\.ts$": ["ts-jest", {}] },
};
