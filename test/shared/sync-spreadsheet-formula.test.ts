import { describe, expect, it } from '@jest/globals';
import { readSyncFile } from '../../shared/directory-sync/read-file.ts';
import { guardFormula, unguardFormula } from '../../shared/directory-sync/spreadsheet-formula.ts';

/** The spreadsheet's "this is text" apostrophe: written before a formula-like CSV cell, dropped by the sync's CSV reader. */
describe('a cell a spreadsheet would run as a formula', () => {
  it('is guarded with an apostrophe, and read back without it; apostrophes of its own stay', () => {
    for (const value of ['=1+1', '+14155550123', '-x', '@SUM(A1)', "'=x", "''@y", "'plain", 'plain', "O'Brien", '']) {
      expect(unguardFormula(guardFormula(value))).toBe(value);
    }
    expect(guardFormula('=HYPERLINK("x")')).toBe('\'=HYPERLINK("x")');
    expect(guardFormula("'plain")).toBe("'plain");
  });

  it("the sync's CSV reader drops the guard, in every column; JSON and YAML keep what they hold", () => {
    const csv = readSyncFile('people.csv', () => Buffer.from("email,name\n'-x@acme.example,'=1+1\ny@acme.example,'plain\n"));
    expect(csv.ok && csv.rows.map((row) => row.values)).toEqual([
      { email: '-x@acme.example', name: '=1+1' },
      { email: 'y@acme.example', name: "'plain" },
    ]);
    const yaml = readSyncFile('people.yaml', () => Buffer.from('- email: y@acme.example\n  name: "\'=1+1"\n'));
    expect(yaml.ok && yaml.rows[0]!.values['name']).toBe("'=1+1");
  });
});
