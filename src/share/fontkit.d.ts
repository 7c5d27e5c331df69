// The part of fontkit (pdfkit's own font engine) the PDF report uses: whether a font has a glyph.
declare module 'fontkit' {
  export interface Font {
    hasGlyphForCodePoint(codePoint: number): boolean;
  }
  export function create(buffer: Buffer): Font;
}
