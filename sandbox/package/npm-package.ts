import { kb, type NpmPackage } from '../../surfaces/npm-package.ts';
import { buildSandboxPackage, SANDBOX_BIN, SANDBOX_PACKAGE, sandboxPackageDir } from './build-sandbox-package.ts';

export const sandboxPackage: NpmPackage = {
  name: SANDBOX_PACKAGE,
  dir: sandboxPackageDir,
  async build() {
    const built = await buildSandboxPackage();
    const console = built.console ? ', the console' : '';
    return `Sandbox package: dist/sandbox/ (${SANDBOX_PACKAGE}, bin ${SANDBOX_BIN}, ESM and .d.ts${console}; ${built.files} files, ${kb(built.bytes)}, ${built.bundled.length} packages bundled); check it with npm run smoke`;
  },
};
