import { describe, expect, it } from '@jest/globals';
import { checkExpression, expressionsIn, renderTemplate, type ImlScope } from '../../../../make-app/interpreter/iml/index.ts';
import { imlErrorOf } from './support.ts';

const scope: ImlScope = {
  parameters: { name: 'Ann', count: 3, flag: false, none: null, tags: ['a', 'b'] },
  body: { id: 'x1', nested: { ok: true }, text: 'look: {{parameters.name}}' },
  spread: { a: 'from spread', c: 'from spread', d: 'only in spread' },
  item: undefined,
  nothing: null,
};
const render = (template: unknown): unknown => renderTemplate(template, scope);

describe('renderTemplate: strings', () => {
  it('gives the typed value of a string that is exactly one expression', () => {
    expect(render('{{body}}')).toBe(scope.body);
    expect(render('{{ parameters.count }}')).toBe(3);
    expect(render('{{parameters.flag}}')).toBe(false);
    expect(render('{{parameters.none}}')).toBeNull();
    expect(render('{{parameters.tags}}')).toBe((scope.parameters as { tags: unknown }).tags);
    expect(render('{{undefined}}')).toBeUndefined();
  });

  it('gives text when text and expressions are mixed, with undefined and null as empty text', () => {
    expect(render('Hello {{parameters.name}}!')).toBe('Hello Ann!');
    expect(render('{{parameters.count}} items')).toBe('3 items');
    expect(render(' {{parameters.count}}')).toBe(' 3');
    expect(render('[{{item}}|{{nothing}}|{{parameters.missing}}]')).toBe('[||]');
    expect(render('{{parameters.name}}{{parameters.count}}')).toBe('Ann3');
    expect(render('flag={{parameters.flag}} tags={{parameters.tags}} body={{body.nested}}')).toBe('flag=false tags=["a","b"] body={"ok":true}');
  });

  it('leaves strings without {{ alone, stray braces included', () => {
    expect(render('plain')).toBe('plain');
    expect(render('')).toBe('');
    expect(render('a }} b { c }')).toBe('a }} b { c }');
  });

  it('ends an expression at the first }} outside quotes', () => {
    expect(render("{{ 'a}}b' }}")).toBe('a}}b');
    expect(render('<{{ parameters.name }}>{{ "}}" }}')).toBe('<Ann>}}');
  });

  it('never renders values that came from the scope', () => {
    expect(render('{{body.text}}')).toBe('look: {{parameters.name}}');
    expect(render({ '{{...}}': '{{body}}' })).toEqual(scope.body);
  });
});

describe('renderTemplate: structure', () => {
  it('renders nested objects and arrays, passing numbers, booleans and null through', () => {
    const template = { a: [1, '{{parameters.count}}', ['x{{parameters.name}}', null]], b: { c: true, d: { e: '{{body.nested.ok}}' } }, f: 2.5, g: null };
    const before = JSON.stringify(template);
    expect(render(template)).toEqual({ a: [1, 3, ['xAnn', null]], b: { c: true, d: { e: true } }, f: 2.5, g: null });
    expect(JSON.stringify(template)).toBe(before);
    expect(render(7)).toBe(7);
    expect(render(false)).toBe(false);
    expect(render(null)).toBeNull();
  });

  it('omits keys whose value renders to undefined, but keeps null and empty text', () => {
    const result = render({
      a: '{{undefined}}',
      b: '{{parameters.missing}}',
      c: 'text {{item}}',
      d: '{{nothing}}',
      e: '{{parameters.missing}}{{item}}',
    }) as object;
    expect(result).toEqual({ c: 'text ', d: null, e: '' });
    expect(Object.keys(result)).toEqual(['c', 'd', 'e']);
  });

  it('keeps undefined elements of arrays (element-wise, no dropping)', () => {
    expect(render(['{{item}}', 1])).toEqual([undefined, 1]);
  });

  it('spreads an object: spread keys win over earlier keys, later keys win over spread keys', () => {
    const result = render({ a: 'explicit before', '{{...}}': '{{spread}}', c: 'explicit after', e: 'own' });
    expect(result).toEqual({ a: 'from spread', c: 'explicit after', d: 'only in spread', e: 'own' });
  });

  it('spreads an object written literally in the template', () => {
    expect(render({ '{{...}}': { x: '{{parameters.name}}' }, y: 1 })).toEqual({ x: 'Ann', y: 1 });
  });

  it('spreads nothing for null and undefined', () => {
    expect(render({ a: 1, '{{...}}': '{{nothing}}' })).toEqual({ a: 1 });
    expect(render({ '{{...}}': '{{item}}', a: 1 })).toEqual({ a: 1 });
  });

  it('refuses spreading anything but an object', () => {
    expect(imlErrorOf(() => render({ qs: { '{{...}}': '{{parameters.tags}}' } })).message).toBe(
      'The spread "{{...}}" needs an object (or null/undefined), got array (at qs)',
    );
    expect(imlErrorOf(() => render({ '{{...}}': '{{parameters.name}}' })).message).toContain('got string (at the template root)');
    expect(imlErrorOf(() => render({ '{{...}}': 3 })).message).toContain('got number');
  });

  it('lets a later key that renders to undefined remove a spread key (like JS spread then JSON)', () => {
    expect(render({ '{{...}}': '{{spread}}', a: '{{item}}' })).toEqual({ c: 'from spread', d: 'only in spread' });
  });

  it('keeps spread keys whose value is undefined out of the result', () => {
    const result = renderTemplate({ '{{...}}': '{{o}}', b: 2 }, { o: { a: undefined, c: 1 } }) as object;
    expect(Object.keys(result)).toEqual(['c', 'b']);
  });

  it('refuses dynamic keys', () => {
    expect(imlErrorOf(() => render({ body: { '{{parameters.name}}': 1 } })).message).toBe(
      'Dynamic object keys are not supported: key "{{parameters.name}}" (at body)',
    );
    expect(imlErrorOf(() => render({ 'x_{{item}}': 1 })).message).toContain('Dynamic object keys are not supported: key "x_{{item}}"');
    expect(imlErrorOf(() => render({ '{{ ... }}': '{{spread}}' })).message).toContain('(write the spread key exactly as "{{...}}")');
  });

  it('treats "__proto__" keys as plain keys', () => {
    const result = render(JSON.parse('{"__proto__": {"polluted": "{{parameters.name}}"}}')) as Record<string, unknown>;
    expect(Object.hasOwn(result, '__proto__')).toBe(true);
    expect(Object.getOwnPropertyDescriptor(result, '__proto__')?.value).toEqual({ polluted: 'Ann' });
    expect((result as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('refuses values that are not JSON', () => {
    expect(imlErrorOf(() => render({ a: [() => 1] })).message).toBe('Unsupported template value of type function (at a[0])');
  });

  it('says where in the template an expression failed', () => {
    expect(imlErrorOf(() => render({ response: { output: { names: ['{{ fooBar(1) }}'] } } })).message).toBe(
      'Unknown function "fooBar" at column 2 in "{{ fooBar(1) }}" (at response.output.names[0])',
    );
    expect(imlErrorOf(() => render({ url: '/x/{{missing}}' })).message).toBe('Unknown variable missing at column 1 in "{{missing}}" (at url)');
  });
});

describe('expressionsIn', () => {
  it('lists every expression as written, in document order, with the spread key left out', () => {
    const template = [
      { url: '/o/{{parameters.id}}/x', qs: { '{{...}}': "{{omit(parameters, 'id')}}", n: 1, list: ['{{ a }}', 'b{{c}}d{{ e }}'] } },
      { response: { output: '{{body}}', none: null, flag: true, text: 'plain' } },
    ];
    expect(expressionsIn(template)).toEqual(['parameters.id', "omit(parameters, 'id')", ' a ', 'c', ' e ', 'body']);
  });

  it('finds nothing in a template without expressions', () => {
    expect(expressionsIn({ a: ['x', 1, null, true, { b: 'y' }] })).toEqual([]);
    expect(expressionsIn('{{x}}')).toEqual(['x']);
  });

  it('refuses what renderTemplate refuses structurally', () => {
    expect(imlErrorOf(() => expressionsIn({ '{{k}}': 1 })).message).toContain('Dynamic object keys are not supported');
    expect(imlErrorOf(() => expressionsIn({ a: 'x {{ y' })).message).toContain("'{{' without a matching '}}'");
  });
});

describe('a Make-style communication template', () => {
  const communication = JSON.parse(`{
    "url": "/o/currentusers",
    "qs": {"teamname": "{{parameters.teamname}}"},
    "response": {
      "iterate": "{{body}}",
      "output": {"{{...}}": "{{item}}", "names": "{{join(map(body, 'name'), ', ')}}", "count": "{{length(body)}}"}
    }
  }`) as { response: { iterate: unknown; output: unknown } } & Record<string, unknown>;
  const parameters = { teamname: 'Ops' };
  const body = [
    { name: 'Ann', id: 1 },
    { name: 'Bob', id: 2, count: 'overridden by the explicit key' },
  ];

  it('uses only supported IML', () => {
    const sources = expressionsIn(communication);
    expect(sources).toEqual(['parameters.teamname', 'body', 'item', "join(map(body, 'name'), ', ')", 'length(body)']);
    for (const source of sources) expect(() => checkExpression(source)).not.toThrow();
  });

  it('renders the request, then the output once per element with item bound', () => {
    const { response, ...request } = communication;
    expect(renderTemplate(request, { parameters })).toEqual({ url: '/o/currentusers', qs: { teamname: 'Ops' } });

    const container = renderTemplate(response.iterate, { parameters, body });
    expect(container).toBe(body);
    const bundles = (container as unknown[]).map((item) => renderTemplate(response.output, { parameters, body, item }));
    expect(bundles).toEqual([
      { name: 'Ann', id: 1, names: 'Ann, Bob', count: 2 },
      { name: 'Bob', id: 2, names: 'Ann, Bob', count: 2 },
    ]);
  });

  it('fails loudly when the response scope lacks a variable the template uses', () => {
    expect(imlErrorOf(() => renderTemplate(communication.response.output, { parameters, body })).message).toBe(
      'Unknown variable item at column 1 in "{{item}}" (at {{...}})',
    );
  });
});
