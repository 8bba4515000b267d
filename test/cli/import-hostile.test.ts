import { afterAll, describe, expect, it } from '@jest/globals';
import { readSyncFile } from '../../shared/directory-sync/read-file.ts';
import { validateRows } from '../../shared/directory-sync/validate-rows.ts';
import { SOURCE_IDS, SOURCES, type SourceId } from '../../shared/directory-import/sources.ts';
import { hostilePeople, hostileRefusal, RAW_CONTROL, RAW_VENDOR_CONTROL } from '../support/source-stand-ins/hostile.ts';
import { fault, send } from '../support/source-stand-ins/stand-in.ts';
import { LIST_PATH, runImport, SOURCE_KEYS, standInFor, tempFolder } from './import-support.ts';

/**
 * `pagerly directory import` against a vendor whose text attacks the reader
 * (test/support/source-stand-ins/hostile.ts): every piece of it the import shows (the summary,
 * the people left out and why, the roles, the notes, a refusal quoting the vendor's words, on a
 * pipe and on a terminal, human and --json) shows control, bidi and zero-width characters as
 * escapes by the rule of every surface (shared/visible-controls.ts) and the source's key in no
 * form (shared/redact.ts; runImport also checks the output and the file for it). The file is
 * data, not display: names are written exact (YAML's own `\u202E` escape reads back as the
 * character), and a person whose e-mail or name echoes the key is left out, saying so.
 */

const folder = tempFolder();
afterAll(() => folder.remove());

/** The names the sync reads back from a people file, by e-mail. */
function namesIn(path: string): Record<string, string> {
  const read = readSyncFile(path);
  if (!read.ok) throw new Error(JSON.stringify(read.problems));
  const validation = validateRows(read.rows, read.columns, read.problems);
  if (!validation.ok) throw new Error(JSON.stringify(validation.problems.slice(0, 5)));
  return Object.fromEntries(validation.rows.flatMap((row) => (row.remove ? [] : [[row.email, row.name]])));
}

describe.each(SOURCE_IDS.map((source) => [SOURCES[source].name, source] as const))('%s, hostile', (_name, source: SourceId) => {
  const key = SOURCE_KEYS[source];
  const { org, written } = hostilePeople(source, key);

  it.each([
    ['on a pipe', false],
    ['on a terminal', true],
  ])('%s: the summary shows every control as an escape and the key nowhere; the file keeps the names exact', async (_where, tty) => {
    const standIn = await standInFor(source, org);
    try {
      const out = folder.path(`${source}-${tty ? 'tty' : 'pipe'}.yaml`);
      const r = await runImport(source, standIn, out, [], {}, { tty });
      expect(r.code).toBe(0);
      expect(r.stdout).not.toMatch(RAW_CONTROL);
      // On a terminal, stderr holds the progress bars' own escape sequences, and none of the vendor's.
      expect(r.stderr).not.toMatch(RAW_VENDOR_CONTROL);
      // The custom role, named in the roles line and the note, reordered in the source.
      expect(r.stdout).toContain('On-call \\u202edael\\u202c');
      // A role that holds the key: named, the key redacted.
      expect(r.stdout).toContain('Lead [redacted]');
      // The people left out, each with why: the e-mail shown as it came, the escapes visible.
      expect(r.stdout).toContain('eve\\u202egro.elpmaxe@acme.example');
      expect(r.stdout).toMatch(/esc@acme\.example\s+name holds the control character U\+001B/);
      expect(r.stdout).toMatch(/echo@acme\.example\s+its name holds the key in [A-Z_]+, which is written nowhere/);
      expect(r.stdout).toMatch(/\[redacted\]@acme\.example\s+its email holds the key/);

      // The file is data: each name exact as the sync reads it back, the invisible ones as YAML escapes a reviewer sees.
      expect(namesIn(out)).toEqual(written);
      expect(r.file).toContain('"Ops \\u202Esyap\\u202C"');
      expect(r.file).not.toMatch(RAW_CONTROL);
    } finally {
      await standIn.close();
    }
  });

  it('--json on a terminal: the same values to a parser, every control a JSON escape, the key nowhere', async () => {
    const standIn = await standInFor(source, org);
    try {
      const r = await runImport(source, standIn, folder.path(`${source}-json.yaml`), ['--json'], {}, { tty: true });
      expect(r.code).toBe(0);
      expect(r.stdout).not.toMatch(RAW_CONTROL);
      expect(r.stdout).toContain('\\u202e');
      const document = r.json();
      expect(document.roles.map((role: { from: string }) => role.from)).toEqual(expect.arrayContaining(['On-call \u202Edael\u202C', 'Lead [redacted]']));
      expect(document.skipped.map((skipped: { email: string }) => skipped.email)).toEqual(
        expect.arrayContaining(['eve\u202Egro.elpmaxe@acme.example', 'echo@acme.example', '[redacted]@acme.example']),
      );
    } finally {
      await standIn.close();
    }
  });

  it.each([
    ['human', []],
    ['--json', ['--json']],
    ['--debug', ['--debug']],
  ])("a refusal quoting the vendor's words (%s): the key redacted, every control shown, nothing written", async (_form, extra) => {
    const refusal = hostileRefusal(source, key);
    const standIn = await standInFor(source, org, {
      faults: [
        fault(
          (seen) => seen.url.pathname === LIST_PATH[source],
          Number.POSITIVE_INFINITY,
          (response) => send(response, refusal),
        ),
      ],
    });
    try {
      const out = folder.path(`${source}-refused.yaml`);
      const r = await runImport(source, standIn, out, extra, {}, { tty: true });
      // Grafana OnCall answers a token it does not know with 403 (sources.ts): a 403 without
      // "permission" is the key refused (3); the others' 403 is a missing permission (4).
      expect(r.code).toBe(source === 'grafana-oncall' ? 3 : 4);
      expect(r.file).toBeUndefined();
      // On a terminal the human error's "error:" is coloured: escape sequences of the CLI's own, none of the vendor's.
      expect(r.stderr).not.toMatch(RAW_VENDOR_CONTROL);
      expect(r.stdout).toBe('');
      const json = extra.includes('--json');
      const message: string = json ? r.errorJson().error.message : r.stderr;
      // "Key <key>" is the end of Opsgenie's header value "GenieKey <key>", a form redact takes out whole.
      expect(message).toMatch(/"(Key )?\[redacted\] refused: /);
      // Human: the escapes as text; --json: JSON's own escapes, read back as the characters by a parser.
      if (json) expect(message).toContain('\u202Etnuocca\u202C\u200B locked\u001b]52;c;');
      else expect(message).toContain('\\u202etnuocca\\u202c\\u200b locked\\x1b]52;c;');
    } finally {
      await standIn.close();
    }
  });
});
