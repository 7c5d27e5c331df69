// Rendered share-link PDFs, kept in memory so a link opened again (or fetched in a loop: the link
// needs no sign-in) costs a database read, not another render. One entry per link, under the
// version of what the PDF prints (pdfVersion in pdf.ts): a new settled run, a changed project
// or a new day gives a new version and the next request renders it again. Bounded in bytes,
// least recently used first out; a render in progress is shared by the requests that wait for it.
export class PdfCache {
  private readonly entries = new Map<string, { version: string; pdf: Buffer }>();
  private readonly pending = new Map<string, Promise<Buffer>>();
  private size = 0;
  /** Renders done and requests answered from memory (for tests and diagnostics). */
  renders = 0;
  hits = 0;

  constructor(readonly maxBytes: number) {}

  get bytes() {
    return this.size;
  }

  /** The PDF of a link at a version: the kept one, or render()'s (kept when it fits). */
  async get(shareId: string, version: string, render: () => Promise<Buffer>): Promise<Buffer> {
    const kept = this.entries.get(shareId);
    if (kept?.version === version) {
      this.entries.delete(shareId);
      this.entries.set(shareId, kept);
      this.hits++;
      return kept.pdf;
    }
    const key = `${shareId}\n${version}`;
    const waiting = this.pending.get(key);
    if (waiting) {
      this.hits++;
      return waiting;
    }
    const made = (async () => {
      this.renders++;
      const pdf = await render();
      this.put(shareId, version, pdf);
      return pdf;
    })();
    this.pending.set(key, made);
    try {
      return await made;
    } finally {
      this.pending.delete(key);
    }
  }

  private put(shareId: string, version: string, pdf: Buffer) {
    const old = this.entries.get(shareId);
    if (old) {
      this.entries.delete(shareId);
      this.size -= old.pdf.length;
    }
    if (pdf.length > this.maxBytes) return;
    this.entries.set(shareId, { version, pdf });
    this.size += pdf.length;
    for (const [id, e] of this.entries) {
      if (this.size <= this.maxBytes) break;
      this.entries.delete(id);
      this.size -= e.pdf.length;
    }
  }
}
