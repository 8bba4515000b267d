import type { Difference } from './model.ts';

const SURFACE_NAMES: Record<string, string> = {
  zapier: 'Zapier',
  make: 'Make',
  n8n: 'n8n',
  cli: 'CLI',
  client: '@pagerly/client',
  mcp: 'MCP',
  openapi: 'OpenAPI',
  'incident-action': 'Incident action',
  'directory-action': 'Directory action',
};

// Ids and changes come from the project's own descriptions, yet a backtick in one would end the code span early.
const code = (text: string) => `\`${text.replaceAll('`', "'")}\``;
const escapeMarkdown = (text: string) => text.replace(/([\\`*_[\]<>|])/g, '\\$1');

/** The release notes' "Breaking" and "Compatible" sections, as Markdown, from the differences since the released version. */
export function releaseNotes(differences: readonly Difference[], releasedVersion: string, version: string): string {
  const section = (title: string, list: readonly Difference[], withAdvice: boolean) => {
    if (!list.length) return [`## ${title}`, '', `None since ${escapeMarkdown(releasedVersion)}.`, ''];
    const lines = [`## ${title}`, ''];
    for (const surface of [...new Set(list.map((d) => d.surface))]) {
      lines.push(`### ${SURFACE_NAMES[surface] ?? surface}`, '');
      const ofSurface = list.filter((d) => d.surface === surface);
      for (const d of ofSurface) lines.push(`- ${code(d.id)}: ${d.depends ? `depends: ${escapeMarkdown(d.depends)}; ` : ''}${escapeMarkdown(d.change)}`);
      // Most differences of one surface share their advice: each is said once, under the list.
      if (withAdvice) for (const advice of new Set(ofSurface.map((d) => d.advice))) lines.push('', `What to do: ${escapeMarkdown(advice)}`);
      lines.push('');
    }
    return lines;
  };
  return [
    `Changes to the public interface from ${escapeMarkdown(releasedVersion)} to ${escapeMarkdown(version)} (npm run api:check -- --notes).`,
    '',
    ...section(
      'Breaking',
      differences.filter((d) => d.verdict === 'breaking'),
      true,
    ),
    ...section(
      'Compatible',
      differences.filter((d) => d.verdict === 'compatible'),
      false,
    ),
  ]
    .join('\n')
    .replace(/\n+$/, '\n');
}
