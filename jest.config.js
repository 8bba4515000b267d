// ESM throughout: swc only strips types (tsc checks them in `npm test`), and
// jest runs with --experimental-vm-modules so that got (ESM-only) loads as is.
import { availableParallelism } from 'node:os';

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
  // Most suites wait on sockets, timers and child processes rather than compute: with jest's
  // default of one worker less than the cores (one worker on a 2-core machine) the CPU sat
  // idle half the run. One and a half workers per core keeps it busy and halves the wall time
  // there (280 s to 144 s, the same 2,176 tests passing). Counted here, not as '150%': jest
  // reads a percentage over 100 as a number of workers.
  maxWorkers: Math.max(1, Math.round(availableParallelism() * 1.5)),
  globalSetup: '<rootDir>/test/support/check-beside-checkout.ts',
};
