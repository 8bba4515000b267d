import { buildCliPackage, CLI_PACKAGE, cliPackageDir } from '../cli/build-cli-package.ts';
import { buildClientPackage, CLIENT_PACKAGE, clientPackageDir } from '../client/build-client-package.ts';

/** A package users install from npm: a built folder under dist/ with its own package.json. */
export interface NpmPackage {
  readonly name: string;
  readonly dir: string;
  /** Builds it into `dir`; returns the line `npm run build` prints. */
  build(): Promise<string>;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

export const cliPackage: NpmPackage = {
  name: CLI_PACKAGE,
  dir: cliPackageDir,
  async build() {
    const built = await buildCliPackage();
    return `CLI package: dist/cli/ (${CLI_PACKAGE}, bin pagerly; ${built.files} files, ${kb(built.bytes)}, ${kb(built.startBytes)} loaded before a command); check it with npm run smoke`;
  },
};

export const clientPackage: NpmPackage = {
  name: CLIENT_PACKAGE,
  dir: clientPackageDir,
  async build() {
    const built = await buildClientPackage();
    return `Client package: dist/client/ (${CLIENT_PACKAGE}, ESM and .d.ts; ${built.files} files, ${kb(built.bytes)}); check it with npm run smoke`;
  },
};

/**
 * The npm packages `npm run build` makes besides the registered surfaces: the client package
 * is the Client surface's build (surfaces/index.ts); the CLI's commands are written by hand,
 * and its one part made from the operations, `pagerly mcp`, is the MCP surface.
 */
export const npmPackages: readonly NpmPackage[] = [cliPackage];
