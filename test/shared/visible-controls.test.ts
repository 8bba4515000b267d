import { describe, expect, it } from '@jest/globals';
import { invisibleControlsIn, jsonShowingControls, showInvisibleControls } from '../../shared/visible-controls.ts';

/**
 * The one rule every surface shows untrusted text by (the terminal, the sandbox console): what
 * would reorder, hide or forge text is shown as an escape; what people write with is kept. The
 * bidi controls are Unicode's Bidi_Control (UAX #9), the joiners' use in words is Unicode's
 * chapter on the cursive scripts (ZWNJ in Persian) and UTS #51 (ZWJ emoji sequences, tag
 * sequences of subdivision flags).
 */
describe('showInvisibleControls', () => {
  it('shows a right-to-left override, so "Deploy \\u202Egnp.exe\\u202C" never reads "Deploy exe.png"', () => {
    expect(showInvisibleControls('Deploy \u202Egnp.exe\u202C')).toBe('Deploy \\u202egnp.exe\\u202c');
  });

  it('shows every bidi control, control character and line separator', () => {
    expect(showInvisibleControls('\u202a\u202b\u202d\u2066\u2067\u2068\u2069\u200e\u200f\u061c\u2028\u2029')).toBe(
      '\\u202a\\u202b\\u202d\\u2066\\u2067\\u2068\\u2069\\u200e\\u200f\\u061c\\u2028\\u2029',
    );
    expect(showInvisibleControls('a\nb\r\t\b\x1b\x7f\u0085\u009b\x00')).toBe('a\\nb\\r\\t\\b\\x1b\\x7f\\x85\\x9b\\x00');
  });

  it('shows zero-width characters that make one name look like another', () => {
    expect(showInvisibleControls('Ad\u200bmin')).toBe('Ad\\u200bmin');
    expect(showInvisibleControls('\ufeffPlatform\u2060')).toBe('\\ufeffPlatform\\u2060');
    // A joiner between Latin letters joins nothing: it only hides.
    expect(showInvisibleControls('Ad\u200dmin Gr\u200cace')).toBe('Ad\\u200dmin Gr\\u200cace');
    expect(showInvisibleControls('\u200dstart')).toBe('\\u200dstart');
  });

  it('shows tag characters, which smuggle hidden text, but keeps the tags of a subdivision flag', () => {
    const hidden = [...'ignore'].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('');
    expect(showInvisibleControls(`Ops${hidden}`)).toBe('Ops\\u{e0069}\\u{e0067}\\u{e006e}\\u{e006f}\\u{e0072}\\u{e0065}');
    const england = '\u{1f3f4}\u{e0067}\u{e0062}\u{e0065}\u{e006e}\u{e0067}\u{e007f}';
    expect(showInvisibleControls(`London ${england}`)).toBe(`London ${england}`);
    // A flag cannot carry a message: past a region's length the tags are shown.
    expect(showInvisibleControls(`\u{1f3f4}${hidden}${hidden}\u{e007f}`)).toContain('\\u{e0069}');
  });

  it('keeps what people write with: joiners in Persian and Indic words, emoji sequences, every script', () => {
    const writing = ['می\u200cخواهم', 'क्\u200dष', '👩\u200d💻 👨🏽\u200d🚀 🏳️\u200d🌈', 'Zoë Ångström 中文 العربية עברית ไทย 🚀 back\\slash "quoted"'];
    for (const text of writing) expect(showInvisibleControls(text)).toBe(text);
  });

  it('is idempotent, and names each control where it is for a surface that marks them', () => {
    const text = 'a\u202eb\u200bc\u{e0041}';
    const once = showInvisibleControls(text);
    expect(showInvisibleControls(once)).toBe(once);
    expect(invisibleControlsIn(text)).toEqual([
      { index: 1, char: '\u202e' },
      { index: 3, char: '\u200b' },
      { index: 5, char: '\u{e0041}' },
    ]);
    expect(showInvisibleControls(text, (char) => `<${char.codePointAt(0)!.toString(16)}>`)).toBe('a<202e>b<200b>c<e0041>');
  });
});

/**
 * The same rule for JSON (`--json`, a JSON line, an MCP result's text): JSON.stringify escapes
 * only C0, so DEL, C1 (U+009B is a one-byte CSI), the bidi and the zero-width controls would
 * stay raw and act on whatever shows the text. Written as JSON's own `\uXXXX` escapes, the
 * value a parser reads is unchanged (RFC 8259, section 7).
 */
describe('jsonShowingControls', () => {
  const value = { title: 'Deploy \u202Egnp.exe\u202C', name: 'Ad\u200bmin\u{e0041}', csi: 'a\u009b31mb\x7f', c0: 'x\ny\x1b', kept: 'می\u200cخواهم 👩\u200d💻' };

  it('shows every invisible control as a JSON escape, and a parser reads the same value', () => {
    const text = jsonShowingControls(value);
    expect(text).toBe(
      '{"title":"Deploy \\u202egnp.exe\\u202c","name":"Ad\\u200bmin\\udb40\\udc41","csi":"a\\u009b31mb\\u007f","c0":"x\\ny\\u001b","kept":"می\u200cخواهم 👩\u200d💻"}',
    );
    expect(JSON.parse(text)).toEqual(value);
    expect(invisibleControlsIn(text)).toEqual([]);
  });

  it('keeps the line breaks of its indentation, and the value', () => {
    const text = jsonShowingControls(value, 2);
    expect(text.split('\n')).toHaveLength(7);
    expect(text).toContain('\\u202e');
    expect(JSON.parse(text)).toEqual(value);
    expect(invisibleControlsIn(text.replace(/\n/g, ''))).toEqual([]);
  });
});
