import { render } from "preact";
import init from "confab-web";
import "./styles/app.css";

declare const ENGINE_WASM_URL: string;

async function boot() {
  await init({ module_or_path: ENGINE_WASM_URL });
  render(<p>Confab</p>, document.getElementById("app")!);
}

void boot();
