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
 *   default: index.html beside this script);
 *   lang ("en" | "nl": the page's language; without it, Dutch when the
 *   browser's language starts with "nl", else English. Set or removed, it
 *   decides again; the switch in the page, or lang= in the link, wins over it).
 *
 * Language: every string the page writes is in one table per language
 * (i18n/en.js, i18n/nl.js); figures follow the locale (en-US "14.96 GiB",
 * "1,210,304 tokens"; nl-NL "14,96 GiB", "1.210.304 tokens"). The module's
 * own text (formulas, component labels, sources, warnings, its errors) is
 * shown as it comes, in English.
 *
 * Number inputs take plain numbers or short forms, and say what they read:
 *   tokens "32k" = 32,000 and "32K" = 32,768 (vLLM's convention: lower-case
 *   decimal, upper-case binary), parameters "7B" = 7,000,000,000, "1.5e9",
 *   bytes "24 GB" = 24·10^9 B, "24 GiB" = 24·2^30 B. In English a comma
 *   groups thousands ("1,024"); in Dutch it is the decimal sign ("1,5e9",
 *   "24,5 GB"), points written more than once group thousands ("1.210.304"),
 *   and a single point stays a decimal point ("1.5e9"). See quantity.js.
 *
 * URL state: location.hash = "#v=1&wl=training&src=catalog&model=...&method=lora"
 *   (URLSearchParams; keys in the FIELDS table). Only the keys of the chosen
 *   workload are written, numbers the English way whatever the language;
 *   "&lang=nl" (or en) last, once the reader has chosen a language. A link
 *   reproduces the estimate.
 *
 * Events:
 *   estimate-change  bubbling, composed CustomEvent; detail = the report object
 *                    ({ok:true, components, ...} or {ok:false, error}).
 *   language-change  bubbling, composed CustomEvent; detail = {lang}: the
 *                    language the element now shows (also when it starts).
 *
 * Properties: scenario (the scenario object last built), report, plan, sweep,
 * language (en | nl; setting it is what the switch does).
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
import { translator, LANGUAGES } from './i18n/index.js';

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
// The string tables, for the standalone page's own text (page.js): translator(lang).t(key).
VramBudgetElement.translator = translator;
VramBudgetElement.languages = LANGUAGES;
window.VramBudgetElement = VramBudgetElement;

// Guarded registration: a second definition (script loaded twice) is ignored.
try {
  VramBudgetElement.define();
} catch (e) {
  if (!(e instanceof DOMException && e.name === 'NotSupportedError')) throw e;
}
