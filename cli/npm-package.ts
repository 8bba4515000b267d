import { kb, type NpmPackage } from '../surfaces/npm-package.ts';
import { buildCliPackage, CLI_PACKAGE, cliPackageDir } from './build-cli-package.ts';

export const cliPackage: NpmPackage = {
  name: CLI_PACKAGE,
  dir: cliPackageDir,
  async build() {
    const built = await buildCliPackage();
    return `CLI package: dist/cli/ (${CLI_PACKAGE}, bin pagerly; ${built.files} files, ${kb(built.bytes)}, ${kb(built.startBytes)} loaded before a command); check it with npm run smoke`;
  },
};
