/** A child of {@link h}: a node, text, or nothing (`null`, `undefined`, `false` are left out). */
export type Child = Node | string | number | null | undefined | false;

/** Attributes of {@link h}: `true` sets an empty attribute, `false`/`undefined` leave it out, `on*` functions listen. */
export type Attributes = Record<string, string | number | boolean | undefined | ((event: Event) => void)>;

/**
 * Creates an element with attributes and children. Text is always set as text, never parsed as
 * HTML, so request data cannot inject markup.
 *
 * @example h('button', { type: 'button', onclick: () => alert('hi') }, 'Say hi')
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') element.addEventListener(name.slice(2), value);
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  element.append(...nodes(children));
  return element;
}

/** Replaces the children of `parent`. */
export function fill(parent: Element, ...children: Child[]): void {
  parent.replaceChildren(...nodes(children));
}

function nodes(children: Child[]): Array<Node | string> {
  return children
    .filter((c): c is Node | string | number => c !== null && c !== undefined && c !== false)
    .map((c) => (typeof c === 'number' ? String(c) : c));
}

/**
 * The element of `index.html` with this id.
 * @throws Error naming the id when the page lacks it (the HTML and the script are out of step).
 */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`[mockvideo] The dashboard page has no #${id}: rebuild it with "npm run build".`);
  return element as T;
}

/** Says `message` to screen readers through the page's polite live region. */
export function announce(message: string): void {
  const region = byId('announcer');
  region.textContent = '';
  // A fresh text node after a tick, so the same message twice is announced twice.
  setTimeout(() => (region.textContent = message), 50);
}

/** A "Copy" button for `text`; falls back to selecting the text where the clipboard is not available (plain HTTP on a LAN address). */
export function copyButton(text: string, target: HTMLElement, label: string): HTMLButtonElement {
  return h(
    'button',
    {
      type: 'button',
      class: 'copy',
      'aria-label': `Copy ${label}`,
      onclick: () => {
        if (navigator.clipboard && window.isSecureContext) {
          navigator.clipboard.writeText(text).then(
            () => announce(`Copied ${text}`),
            () => selectText(target),
          );
        } else selectText(target);
      },
    },
    'Copy',
  );
}

function selectText(target: HTMLElement): void {
  const range = document.createRange();
  range.selectNodeContents(target);
  const selection = window.getSelection();
  selection?.removeAllRanges();
  selection?.addRange(range);
  announce('Selected: press Ctrl+C (or Cmd+C) to copy');
}

/**
 * Runs `render` (which replaces the children of `container`) and gives the focus back to the
 * element with the same `data-key` when the focus was inside, so a keyboard user keeps their place
 * across live updates.
 */
export function keepingFocus(container: Element, render: () => void): void {
  const active = document.activeElement;
  const key = active instanceof HTMLElement && container.contains(active) ? active.dataset.key : undefined;
  render();
  if (key !== undefined) container.querySelector<HTMLElement>(`[data-key="${CSS.escape(key)}"]`)?.focus();
}
