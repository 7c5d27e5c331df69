// Type declarations for the two untyped libraries the content engine uses. Only the members we
// call are declared, so a wrong call still fails the type check.
declare module 'text-readability' {
  interface Readability {
    fleschReadingEase(text: string): number;
    fleschKincaidGrade(text: string): number;
    gunningFog(text: string): number;
    smogIndex(text: string): number;
    colemanLiauIndex(text: string): number;
    automatedReadabilityIndex(text: string): number;
    sentenceCount(text: string): number;
    lexiconCount(text: string, removePunctuation?: boolean): number;
    syllableCount(text: string, lang?: string): number;
  }
  const readability: Readability;
  export default readability;
}

declare module 'stopword' {
  export const eng: string[];
  export const deu: string[];
  export const fra: string[];
  export const spa: string[];
  export const ita: string[];
  export const nld: string[];
  export const por: string[];
}
