// The `rison` package ships no types; only its decoder is used.
declare module 'rison' {
  export function decode(text: string): unknown;
}
