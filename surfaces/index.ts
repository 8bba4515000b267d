import { clientSurface } from '../client/surface.ts';
import { makeSurface } from '../make-app/surface.ts';
import { mcpSurface } from '../mcp-server/surface.ts';
import { n8nSurface } from '../n8n-app/surface.ts';
import { openApiSurface } from '../openapi/surface.ts';
import type { Surface } from './surface.ts';
import { zapierSurface } from '../zapier-app/surface.ts';

/** Every surface, in the order the build runs them and the README's table shows them. */
export const surfaces: readonly Surface[] = [zapierSurface, makeSurface, n8nSurface, mcpSurface, clientSurface, openApiSurface];
