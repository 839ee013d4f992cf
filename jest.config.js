/** Plain CommonJS jest + ts-jest. Type checking runs once in `tsc --noEmit`. */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/tests"],
  testMatch: ["**/*.test.ts"],
  transform: { "^.+\\.ts$": ["ts-jest", {}] },
};
