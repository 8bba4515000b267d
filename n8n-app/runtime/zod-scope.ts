/**
 * zod keeps its settings on `globalThis` to share them between copies; the runtime bundle has
 * one copy, so this module-local object stands in for it (the build defines `globalThis` as
 * `zodScope` and injects this module), and the node writes nothing into n8n's globals, which
 * n8n's package scan forbids (no-restricted-globals). Injected rather than put in a banner, so
 * the bundle's "use strict" stays its first statement.
 */
export const zodScope = {};
