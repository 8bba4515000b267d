import { describe, expect, it } from '@jest/globals';
import { FIRST_SHARE, planMigration } from '../../zapier-app/packaging/migration.ts';

// https://docs.zapier.com/integrations/manage/migrate ("Zapier recommends migrating a small
// portion of your existing users") and docs.zapier.com/integrations/news/2026/migrations-same-major-version
// (cross-major migrations are blocked): what npm run zapier:migrate asks Zapier, or refuses to.
describe('planMigration', () => {
  it('moves a small share between versions of one major, saying how to move more', () => {
    expect(planMigration('1.4.0', '1.5.0')).toEqual({
      args: ['migrate', '1.4.0', '1.5.0', String(FIRST_SHARE)],
      note: 'Moves 10% of the users of 1.4.0 to 1.5.0. Watch the Monitoring tab, then run it again with a larger share (up to 100).',
    });
    expect(planMigration(' 1.4.0', '1.4.1 ', '100')).toEqual({ args: ['migrate', '1.4.0', '1.4.1', '100'] });
    // Back to the earlier version of the same major: a roll-back is a migration too.
    expect(planMigration('1.5.0', '1.4.0', '50')).toMatchObject({ args: ['migrate', '1.5.0', '1.4.0', '50'] });
  });

  it('refuses across majors, naming what to do instead', () => {
    expect(planMigration('1.9.2', '2.0.0')).toEqual({
      problem:
        'Not migrating across majors (1.9.2 → 2.0.0): a new major version is a breaking change, which Zaps take up only when their owners edit them. Zapier refuses it too; promote 2.0.0 and let users move (or deprecate 1.9.2) instead.',
    });
    expect(planMigration('0.9.0', '1.0.0')).toHaveProperty('problem');
  });

  it('refuses what is no version, the same version twice, and a share outside 1 to 100', () => {
    expect(planMigration('1.4', '1.5.0')).toEqual({
      problem: 'FROM must be a version of the app such as 1.4.0 (as `zapier-platform versions` lists them); got "1.4".',
    });
    expect(planMigration('1.4.0', '1.5.0; rm -rf /')).toHaveProperty('problem');
    expect(planMigration('1.4.0', '1.4.0')).toEqual({ problem: 'FROM and TO are both 1.4.0: there is nothing to move.' });
    for (const percent of ['0', '101', '10.5', '-1', 'ten', '']) expect(planMigration('1.4.0', '1.5.0', percent)).toHaveProperty('problem');
  });
});
