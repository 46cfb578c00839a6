// jsdom lacks matchMedia and ResizeObserver, which Mantine reads.
window.matchMedia ??= ((query: string) => ({
  matches: false,
  media: query,
  onchange: null,
  addEventListener() {},
  removeEventListener() {},
  addListener() {},
  removeListener() {},
  dispatchEvent: () => false,
})) as never;
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
} as never;
// jsdom has no scrollIntoView, which Mantine's Select calls on the option it highlights.
Element.prototype.scrollIntoView ??= () => {};
