import { execFileSync } from 'node:child_process';
import { stageDir } from './paths.ts';

/**
 * Runs the Zapier CLI in the staged app. Only its offline commands: `validate --without-style`
 * and `build --skip-validation` (after our own validation) never call Zapier's servers.
 */
export function zapierPlatform(args: readonly string[]): string {
  try {
    return execFileSync('zapier-platform', args, {
      cwd: stageDir,
      encoding: 'utf8',
      env: { ...process.env, CI: 'true', DISABLE_ZAPIER_ANALYTICS: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`zapier-platform ${args.join(' ')} failed:\n${stdout}${stderr}`);
  }
}
