import type { DocumentBlock } from '../../content/domain/markdown/types';
import { IntegrationRendersService } from '../../integrations';
import { blockPlaceholder, contentKitHtml } from '../domain/contentkit-html';
import { integrationBlocks } from '../domain/document-html';
import { PageBlocks, pressedBlock } from '../domain/page-blocks';

/** How long a page waits for an integration's block before showing its placeholder. */
const BLOCK_RENDER_TIMEOUT_MS = 2000;

/** The integration blocks of a published page, as HTML. */
export class PageIntegrationBlocks {
  constructor(private readonly integrationRenders: IntegrationRendersService) {}

  /**
   * The page's integration blocks, rendered by their services at once (each within
   * BLOCK_RENDER_TIMEOUT_MS, cached per props by the integrations module), the pressed one with
   * its state and action; a block that failed shows a placeholder, one not installed nothing.
   */
  async render(organizationId: string, spaceId: string, refs: ReturnType<typeof integrationBlocks>, params: URLSearchParams): Promise<PageBlocks | undefined> {
    if (refs.length === 0) return undefined;
    const pressed = pressedBlock(params);
    const renders = await this.integrationRenders.renderPageBlocks(
      organizationId,
      spaceId,
      refs.map((ref, i) => ({ integration: ref.integration, componentId: ref.componentId, props: ref.props, ...(pressed?.index === i ? { state: pressed.state, action: pressed.action } : {}) })),
      BLOCK_RENDER_TIMEOUT_MS,
    );
    const html = new Map<DocumentBlock, string>();
    const frameHosts = new Set<string>();
    renders.forEach((render, index) => {
      if (render.outcome === 'failed') html.set(refs[index].node, blockPlaceholder(refs[index].integration));
      if (render.outcome !== 'rendered') return;
      render.frameHosts.forEach((host) => frameHosts.add(host));
      html.set(refs[index].node, contentKitHtml(render.output, { index, frameHosts: render.frameHosts }));
    });
    return { html, frameHosts: [...frameHosts], pressed: pressed !== null };
  }
}
