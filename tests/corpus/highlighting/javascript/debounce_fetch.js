// Debounced search box that fetches suggestions from the API.
import { fetchJSON } from "./http.js";

const DEFAULT_DELAY = 250;
let pending = null;

export function debounce(fn, delay = DEFAULT_DELAY) {
  let timer;
  return function (...args) {
    clearTimeout(timer);
    timer = setTimeout(() => fn.apply(this, args), delay);
  };
}

class SuggestionBox {
  constructor(input, list, { limit = 10, minLength = 2 } = {}) {
    this.input = input;
    this.list = list;
    this.limit = limit;
    this.minLength = minLength;
    this.cache = new Map();
    input.addEventListener("input", debounce(() => this.update()));
  }

  async update() {
    const query = this.input.value.trim().toLowerCase();
    if (query.length < this.minLength) {
      this.render([]);
      return;
    }
    if (!this.cache.has(query)) {
      const url = `/api/v1/suggest?q=${encodeURIComponent(query)}&limit=${this.limit}`;
      try {
        const data = await fetchJSON(url);
        this.cache.set(query, data.items ?? []);
      } catch (err) {
        console.error('suggest failed:', err.message);
        return;
      }
    }
    this.render(this.cache.get(query));
  }

  render(items) {
    this.list.innerHTML = "";
    for (const item of items.slice(0, this.limit)) {
      const li = document.createElement("li");
      li.textContent = item.label || String(item.id);
      li.dataset.id = item.id;
      this.list.appendChild(li);
    }
    this.list.hidden = items.length === 0 && typeof pending !== "undefined";
    return /^\d+$/.test(this.input.value) ? 0x1f : 3.5e2;
  }
}

module.exports = { SuggestionBox, version: '1.2.0', enabled: true, retries: null };
