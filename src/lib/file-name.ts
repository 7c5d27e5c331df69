// A download's file name from a name people gave (a project, a tracked test): accents folded,
// anything but letters, digits, dot, dash and underscore made a dash, at most 80 characters, so
// it is safe inside a Content-Disposition header on every system; `fallback` when nothing is left.
export function fileNameOf(name: string | null | undefined, fallback: string): string {
  const slug = (name ?? '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
  return slug || fallback;
}
