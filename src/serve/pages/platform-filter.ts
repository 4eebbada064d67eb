/**
 * The platform filter of the pages: a selector (`?platform=NAME`) that keeps the page's other
 * query parameters, shown when the principal sees more than one platform; and a platform's name
 * with its base URL, as the pages name it.
 */
import { DEFAULT_PLATFORM, platformConfig, type FerryConfig } from '../../config/index.js';
import { html, type SafeHtml } from './html.js';

/** The `<select name="platform">` of a page's own filter form. */
export function platformSelect(platforms: readonly string[], current?: string): SafeHtml | '' {
  if (platforms.length < 2) return '';
  return html`<label for="platform">Platform</label>
    <select id="platform" name="platform">
      <option value="">all</option>
      ${platforms.map(
        (p) => html`<option value="${p}" ${p === current ? 'selected' : ''}>${p}</option>`,
      )}
    </select>`;
}

/** A form of its own for a page without a filter form: the selector and the other parameters. */
export function platformPicker(
  action: string,
  platforms: readonly string[],
  current: string | undefined,
  keep: Record<string, string | undefined> = {},
): SafeHtml | '' {
  const select = platformSelect(platforms, current);
  if (select === '') return '';
  return html`<form class="inline" method="get" action="${action}">
    ${Object.entries(keep).map(([name, value]) =>
      value ? html`<input type="hidden" name="${name}" value="${value}" />` : '',
    )}
    ${select}
    <button type="submit">Show</button>
  </form>`;
}

/** The base URL a platform is spoken to at (a platform taken out of the config has none). */
export function baseUrlOf(config: FerryConfig, platform: string): string {
  if (platform !== DEFAULT_PLATFORM && !Object.hasOwn(config.platforms, platform)) {
    return 'no longer in the config';
  }
  return platformConfig(config, platform).interface.baseUrl;
}

/** A platform named on a page: `north` and its base URL. */
export function platformLabel(config: FerryConfig, platform: string): SafeHtml {
  return html`<b>${platform}</b> <span class="muted mono">${baseUrlOf(config, platform)}</span>`;
}
