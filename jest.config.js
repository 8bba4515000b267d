// ESM throughout: swc only strips types (tsc checks them in `npm test`), and
// jest runs with --experimental-vm-modules so that got (ESM-only) loads as is.
export default {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: { parser: { syntax: 'typescript', importAttributes: true }, target: 'es2023', experimental: { keepImportAttributes: true } },
        module: { type: 'es6' },
      },
    ],
  },
  reporters: ['default', '<rootDir>/test/support/summary-line-reporter.cjs'],
  testTimeout: 20000,
  globalSetup: '<rootDir>/test/support/check-beside-checkout.ts',
};
