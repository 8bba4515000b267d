import { kb, type NpmPackage } from '../surfaces/npm-package.ts';
import { buildClientPackage, CLIENT_PACKAGE, clientPackageDir } from './build-client-package.ts';

export const clientPackage: NpmPackage = {
  name: CLIENT_PACKAGE,
  dir: clientPackageDir,
  async build() {
    const built = await buildClientPackage();
    return `Client package: dist/client/ (${CLIENT_PACKAGE}, ESM and .d.ts; ${built.files} files, ${kb(built.bytes)}); check it with npm run smoke`;
  },
};
