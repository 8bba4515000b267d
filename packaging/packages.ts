import { cliPackage } from '../cli/npm-package.ts';
import { clientPackage } from '../client/npm-package.ts';
import { sandboxPackage } from '../sandbox/package/npm-package.ts';
import type { NpmPackage } from '../surfaces/npm-package.ts';

export { cliPackage, clientPackage, sandboxPackage };

/**
 * The npm packages `npm run build` makes besides the registered surfaces: the client package
 * is the Client surface's build (scripts/surfaces.ts); the CLI's commands are written by hand,
 * and its one part made from the operations, `pagerly mcp`, is the MCP surface; the sandbox
 * package is the checkout's sandbox, bundled.
 */
export const npmPackages: readonly NpmPackage[] = [cliPackage, sandboxPackage];
