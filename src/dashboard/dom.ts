// The page's views draw with lit-html: `html` templates set request data as text, never parsed as
// HTML, so it cannot inject markup; `render` updates the DOM in place (and `repeat` keeps each
// keyed row's elements), so a keyboard user keeps the focus across live updates.
import { html, type TemplateResult } from 'lit-html';
import type { Ref } from 'lit-html/directives/ref.js';

/**
 * The element of `index.html` with this id.
 * @throws Error naming the id when the page lacks it (the HTML and the script are out of step).
 */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`mockvideo's dashboard page has no #${id}: rebuild it with "npm run build".`);
  return element as T;
}

/** Says `message` to screen readers through the page's polite live region. */
export function announce(message: string): void {
  const region = byId('announcer');
  region.textContent = '';
  // A fresh text node after a tick, so the same message twice is announced twice.
  setTimeout(() => (region.textContent = message), 50);
}

/**
 * A "Copy" button for `text`; where the clipboard is not available (plain HTTP on a LAN address) it
 * selects the text of `target` instead, for Ctrl+C.
 */
export function copyButton(text: string, target: Ref<Element>, label: string): TemplateResult {
  const select = () => {
    document.getSelection()?.selectAllChildren(target.value!);
    announce('Selected: press Ctrl+C (or Cmd+C) to copy');
  };
  const copy = () => {
    if (navigator.clipboard && window.isSecureContext)
      navigator.clipboard.writeText(text).then(() => announce(`Copied ${text}`), select);
    else select();
  };
  return html`<button type="button" class="copy" aria-label="Copy ${label}" @click=${copy}>Copy</button>`;
}

/** A description list (`<dt>`/`<dd>` pairs) of facts: term → text or template. */
export function facts(pairs: ReadonlyArray<readonly [string, unknown]>): TemplateResult[] {
  return pairs.map(([term, value]) => html`<dt>${term}</dt><dd>${value}</dd>`);
}
