// KaTeX 0.16.4 ships no declarations: what the client uses of it (the engine renders with it).
declare module "katex" {
  const katex: {
    version: string;
    renderToString(tex: string, options: { displayMode: boolean }): string;
  };
  export default katex;
}
