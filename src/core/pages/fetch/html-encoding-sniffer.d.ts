// Types for html-encoding-sniffer 5 (the package ships none). It returns a WHATWG encoding name.
declare module 'html-encoding-sniffer' {
  function sniffHTMLEncoding(
    bytes: Uint8Array,
    options?: { transportLayerEncodingLabel?: string; defaultEncoding?: string },
  ): string;
  export = sniffHTMLEncoding;
}
