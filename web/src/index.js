/*
 * <vram-budget> — the page face of the VRAM Budget estimator.
 *
 * Presentation only. Every number shown comes from the WebAssembly module's
 * JSON (estimate, plan, sweep, catalog; see wasm/vram-budget.d.ts). This file
 * builds a scenario (CONTRACT v1 section 1) from the inputs, hands it to the
 * module, and draws what comes back, whatever the workload: the report's
 * components and metrics are drawn generically. Bytes are only *formatted*
 * here, with one helper (formatBytes) that returns value and unit label
 * together: GiB = 2^30 bytes, GB = 10^9 bytes.
 *
 * Load (classic scripts, work from file://):
 *   <script src="vram-budget.js"></script>            defines createVramBudget
 *   <script src="vram-budget-element.js"></script>    defines <vram-budget>
 *
 * Markup:
 *   <vram-budget></vram-budget>
 *   <vram-budget workload="training" model="Qwen/Qwen3-8B" training-method="lora"
 *                training-seq-len="4k" gpu="RTX-4090" no-url-state></vram-budget>
 *
 * The element renders into an open shadow root with its own styles: the host
 * page is not restyled, and ids inside one instance never clash with another.
 *
 * Attributes (initial values; the URL fragment wins when it holds a state).
 * Every one is observed: setting it changes the input, removing it returns the
 * input to its default.
 *   workload (inference | training | image | video), source (catalog | params
 *   | config | files), model, params, config (config.json text), weights-bytes
 *   (the checkpoint's exact size, with config), pipeline (image and
 *   video), weights, gpu, gpu-count, gpu-memory (a custom card, e.g. "24 GB"),
 *   headroom (percent);
 *   inference: engine, context, concurrency, kv-cache-dtype, tensor-parallel,
 *   gpu-memory-utilization, n-gpu-layers, split-mode, tensor-split, main-gpu;
 *   training: training-<field> for each CONTRACT `training` field with "_"
 *   written "-" (training-method, training-seq-len, training-lora-rank, ...);
 *   image / video: generation-<field> likewise (generation-width, ...);
 *   no-url-state (boolean: never read or write the page's location.hash);
 *   page-url (where "Link to this estimate" points when no-url-state is set;
 *   default: index.html beside this script).
 *
 * Number inputs take plain numbers or short forms, and say what they read:
 *   tokens "32k" = 32,000 and "32K" = 32,768 (vLLM's convention: lower-case
 *   decimal, upper-case binary), parameters "7B" = 7,000,000,000, "1.5e9",
 *   bytes "24 GB" = 24·10^9 B, "24 GiB" = 24·2^30 B.
 *
 * URL state: location.hash = "#v=1&wl=training&src=catalog&model=...&method=lora"
 *   (URLSearchParams; keys in the FIELDS table). Only the keys of the chosen
 *   workload are written. A link reproduces the estimate.
 *
 * Events:
 *   estimate-change  bubbling, composed CustomEvent; detail = the report object
 *                    ({ok:true, components, ...} or {ok:false, error}).
 *
 * Properties: scenario (the scenario object last built), report, plan, sweep.
 *
 * CSS custom properties (set them on the element):
 *   --vb-accent  accent colour          --vb-ok   colour of "fits"
 *   --vb-bad     "does not fit", errors --vb-muted secondary text
 *   --vb-bg, --vb-fg, --vb-line, --vb-bg-soft  surfaces (light and dark themes
 *   follow the system's prefers-color-scheme)
 */

import { VramBudgetElement } from './element.js';
import { FormMethods } from './form.js';
import { FilesMethods } from './files.js';
import { ReportViews } from './views/report.js';
import { ChartView } from './views/chart.js';
import { PlanView } from './views/plan.js';
import { ReconcileView } from './views/reconcile.js';
import { formatBytes } from './format.js';
import { parseQuantity } from './quantity.js';
import { stateToHash, hashToState, buildScenario } from './state.js';

for (const part of [FormMethods, FilesMethods, ReportViews, ChartView, PlanView, ReconcileView]) {
  for (const name of Object.getOwnPropertyNames(part.prototype)) {
    if (name !== 'constructor') {
      Object.defineProperty(VramBudgetElement.prototype, name, Object.getOwnPropertyDescriptor(part.prototype, name));
    }
  }
}

VramBudgetElement.formatBytes = formatBytes;
VramBudgetElement.parseQuantity = parseQuantity;
VramBudgetElement.stateToHash = stateToHash;
VramBudgetElement.hashToState = hashToState;
VramBudgetElement.buildScenario = buildScenario;
window.VramBudgetElement = VramBudgetElement;

// Guarded registration: a second definition (script loaded twice) is ignored.
try {
  VramBudgetElement.define();
} catch (e) {
  if (!(e instanceof DOMException && e.name === 'NotSupportedError')) throw e;
}
