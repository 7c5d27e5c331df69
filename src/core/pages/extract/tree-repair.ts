// Repairs of the parsed tree so it matches what a browser shows: content after </body> moved
// into the body, React's streamed segments moved to their placeholders.
import { type AnyNode, type Element, isElement, type ParentNode, removeNodes, walk } from './dom.ts';

/**
 * Moves what the markup puts after </body> or </html> into <body>, as browsers do: a theme that
 * closes the body early (a stray </html> in an included header) leaves the whole article after it.
 */
export function adoptStrays(dom: ParentNode, body: Element): void {
  const strays: AnyNode[] = [];
  for (let child: Element = body; child.parent; ) {
    const parent = child.parent as ParentNode;
    const kids = parent.children;
    const at = kids.indexOf(child);
    for (let i = at + 1; i < kids.length; i++) if (kids[i]!.type !== 'text' || NON_SPACE.test((kids[i] as { data: string }).data)) strays.push(kids[i]!);
    if (parent === dom || !isElement(parent as AnyNode)) break;
    child = parent as Element;
  }
  if (!strays.length) return;
  removeNodes(strays);
  for (const n of strays) {
    n.parent = body;
    body.children.push(n);
  }
}

const NON_SPACE = /\S/;

/**
 * React's streamed server rendering sends each late part of the page as <div hidden id="S:n">
 * at the end of the body and a script moves it to its placeholder, a Suspense boundary's
 * <template id="B:n"> ($RC) or a plain segment's <template id="P:n"> ($RS): do the same, so the
 * part is judged where it shows (and is not dropped as hidden).
 */
export function placeStreamedSegments(body: Element): void {
  const templates = new Map<string, Element>();
  const segments: Element[] = [];
  walk(body, (n) => {
    if (!isElement(n)) return false;
    const id = n.attribs.id;
    if (id && id.length < 12) {
      // B:n is a Suspense boundary's slot, P:n a placeholder segment's ($RS): both take S:n.
      if (n.name === 'template' && /^[BP]:[0-9a-z]+$/.test(id) && (id[0] === 'B' || !templates.has(id.slice(2)))) templates.set(id.slice(2), n);
      else if (n.attribs.hidden !== undefined && /^S:[0-9a-z]+$/.test(id)) segments.push(n);
    }
    return n.name !== 'template';
  });
  for (const seg of segments) {
    const slot = templates.get(seg.attribs.id!.slice(2));
    if (!slot?.parent) continue;
    removeNodes([seg]);
    const kids = slot.parent.children;
    kids[kids.indexOf(slot)] = seg;
    seg.parent = slot.parent;
    slot.parent = null;
    const { hidden: _hidden, ...rest } = seg.attribs;
    seg.attribs = rest;
  }
}
