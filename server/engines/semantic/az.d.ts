/** The few parts of `az` (Az.js, OpenCorpora morphology) the lemmatiser uses; the package ships no types. */
declare module 'az' {
  interface AzTag {
    POST?: string;
    toString(): string;
  }
  interface AzParse {
    word: string;
    tag: AzTag;
    parser: string;
    score?: number;
    normalize(keepPOS?: boolean): AzParse;
  }
  interface AzMorph {
    (word: string, config?: Record<string, unknown>): AzParse[];
    init(path: string, callback: (error: Error | null) => void): void;
  }
  const Az: { Morph: AzMorph };
  export default Az;
}
