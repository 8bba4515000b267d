import { clientSurface } from '../client/surface.ts';
import { githubActionSurface } from '../github-action/surface.ts';
import { makeSurface } from '../make-app/surface.ts';
import { mcpSurface } from '../mcp-server/surface.ts';
import { n8nSurface } from '../n8n-app/surface.ts';
import { openApiSurface } from '../openapi/surface.ts';
import type { Surface } from '../surfaces/surface.ts';
import { zapierSurface } from '../zapier-app/surface.ts';

/**
 * Every surface, in the order the build runs them and the README's table shows them. The
 * registry imports every surface, so it sits on the entry points' floor, beside the build and
 * the docs tables that iterate it: in surfaces/ it would sit under the surfaces it imports
 * (test/layering.test.ts).
 */
export const surfaces: readonly Surface[] = [zapierSurface, makeSurface, n8nSurface, mcpSurface, clientSurface, openApiSurface, githubActionSurface];
