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
// Built from web/src/ by web/build.cjs (esbuild); edit the sources, not this file.
(() => {
  // web/src/styles.css
  var styles_default = '/* <vram-budget>: styles of the shadow root (imported as text by element.js). */\n:host {\n  display: block; container-type: inline-size;\n  --vb-accent: #2557a7; --vb-ok: #1b7f3b; --vb-bad: #b42318; --vb-warn: #8a4b00;\n  --vb-muted: #5b6470; --vb-line: #d9dde3; --vb-bg-soft: #f5f7fa;\n  --vb-bg: #ffffff; --vb-fg: #1d2430; --vb-field-border: #8a93a0;\n  --vb-ok-bg: #f1faf3; --vb-bad-bg: #fff6f5; --vb-path-bg: #fde8e6; --vb-hatch: #e7eaee;\n  color: var(--vb-fg); background: var(--vb-bg);\n  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans", sans-serif;\n  color-scheme: light;\n}\n@media (prefers-color-scheme: dark) {\n  :host {\n    --vb-accent: #8cb4ff; --vb-ok: #5fd38a; --vb-bad: #ff8f80; --vb-warn: #f2b45c;\n    --vb-muted: #a9b1bd; --vb-line: #38414e; --vb-bg-soft: #1d232c;\n    --vb-bg: #14181f; --vb-fg: #e6e9ef; --vb-field-border: #6b7585;\n    --vb-ok-bg: #12261a; --vb-bad-bg: #2c1715; --vb-path-bg: #3a1d1a; --vb-hatch: #2a313c;\n    color-scheme: dark;\n  }\n}\n* { box-sizing: border-box; }\n[hidden] { display: none !important; }\ncode, pre, .vb-formula, .vb-formula-line {\n  font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, "DejaVu Sans Mono", monospace;\n}\ncode { font-size: 0.92em; }\n\n.vb-layout { display: grid; grid-template-columns: 340px minmax(0, 1fr); gap: 28px; align-items: start; }\n.vb-form { position: sticky; top: 12px; max-height: calc(100vh - 24px); overflow-y: auto; padding-right: 4px; }\n@container (max-width: 900px) {\n  .vb-layout { grid-template-columns: minmax(0, 1fr); }\n  .vb-form { position: static; max-height: none; overflow: visible; padding-right: 0; }\n}\n.vb-form fieldset { border: 1px solid var(--vb-line); border-radius: 8px; margin: 0 0 14px; padding: 10px 14px 6px; min-width: 0; }\n.vb-form legend { font-weight: 600; padding: 0 6px; }\n.vb-field { margin: 0 0 10px; position: relative; min-width: 0; }\n.vb-field label, .vb-label { display: block; font-size: 13px; font-weight: 600; margin-bottom: 3px; }\n.vb-field input, .vb-field select, .vb-field textarea, .vb-language select {\n  width: 100%; max-width: 100%; font: inherit; font-size: 14px; padding: 5px 7px; color: inherit;\n  border: 1px solid var(--vb-field-border); border-radius: 5px; background: var(--vb-bg);\n}\n/* The language switch: label and select on one line, at the top of the form. */\n.vb-language { display: flex; align-items: center; justify-content: flex-end; gap: 8px; margin: 0 0 10px; }\n.vb-language label { font-size: 13px; font-weight: 600; }\n.vb-language select { width: auto; }\n.vb-field textarea { font-family: ui-monospace, Menlo, Consolas, "DejaVu Sans Mono", monospace; font-size: 12px; }\n.vb-field input:focus, .vb-field select:focus, .vb-field textarea:focus, .vb-language select:focus, button:focus-visible, a:focus-visible, [tabindex="-1"]:focus {\n  outline: 2px solid var(--vb-accent); outline-offset: 1px;\n}\n.vb-field [aria-invalid="true"] { border-color: var(--vb-bad); background: var(--vb-bad-bg); }\n.vb-row { display: grid; grid-template-columns: repeat(2, minmax(0, 1fr)); gap: 10px; }\n.vb-radios { display: flex; flex-wrap: wrap; gap: 4px 12px; margin: 2px 0 8px; font-size: 14px; }\n.vb-radio { cursor: pointer; }\n.vb-workloads { display: grid; grid-template-columns: repeat(2, minmax(0, 1fr)); gap: 6px; margin: 2px 0 8px; }\n.vb-workloads label { display: flex; gap: 6px; align-items: center; border: 1px solid var(--vb-line); border-radius: 6px; padding: 5px 8px; cursor: pointer; font-size: 14px; }\n.vb-workloads label:has(input:checked) { border-color: var(--vb-accent); box-shadow: inset 0 0 0 1px var(--vb-accent); font-weight: 600; }\n.vb-help { color: var(--vb-muted); font-size: 12.5px; margin: 3px 0 0; }\n.vb-understood { color: var(--vb-fg); font-size: 12.5px; margin: 3px 0 0; font-variant-numeric: tabular-nums; }\n.vb-field-error { color: var(--vb-bad); font-size: 13px; margin: 4px 0 0; }\n.vb-path { background: var(--vb-path-bg); color: var(--vb-bad); padding: 0 4px; border-radius: 3px; }\n.vb-permalink { color: var(--vb-accent); font-size: 14px; }\n.vb-code { font-size: 12px; background: var(--vb-bg-soft); padding: 8px; border-radius: 6px; overflow: auto; max-height: 300px; margin: 6px 0; }\ndetails summary { cursor: pointer; font-size: 14px; color: var(--vb-accent); }\na { color: var(--vb-accent); }\n\n/* model type-ahead */\n.vb-listbox {\n  position: absolute; z-index: 5; left: 0; right: 0; top: 100%; margin: 2px 0 0; padding: 4px 0; list-style: none;\n  max-height: 280px; overflow-y: auto; background: var(--vb-bg); border: 1px solid var(--vb-field-border);\n  border-radius: 6px; box-shadow: 0 6px 18px rgba(0, 0, 0, 0.18); font-size: 13.5px;\n}\n.vb-listbox li { padding: 4px 10px; cursor: pointer; display: flex; justify-content: space-between; gap: 8px; }\n.vb-listbox li span { color: var(--vb-muted); white-space: nowrap; font-size: 12.5px; }\n.vb-listbox li[aria-selected="true"] { background: var(--vb-accent); color: var(--vb-bg); }\n.vb-listbox li[aria-selected="true"] span { color: var(--vb-bg); }\n.vb-listbox .vb-empty { color: var(--vb-muted); cursor: default; }\n\n/* results */\n.vb-results { min-width: 0; }\n.vb-results h2 { font-size: 18px; margin: 22px 0 8px; }\n.vb-results h3 { font-size: 15px; margin: 16px 0 6px; }\n.vb-results section:first-of-type h2 { margin-top: 0; }\n.vb-stale section { opacity: 0.45; }\n.vb-banner { border: 1px solid var(--vb-bad); background: var(--vb-bad-bg); color: var(--vb-bad); border-radius: 8px; padding: 8px 12px; margin-bottom: 12px; overflow-wrap: anywhere; }\n.vb-notice { border: 1px solid var(--vb-line); border-left: 4px solid var(--vb-accent); background: var(--vb-bg-soft); border-radius: 0 8px 8px 0; padding: 10px 14px; margin-bottom: 12px; overflow-wrap: anywhere; }\n.vb-notice h2 { margin: 0 0 6px !important; font-size: 17px; }\n.vb-notice p { margin: 0 0 6px; }\n.vb-pending { color: var(--vb-muted); }\n\n.vb-formula-line {\n  font-size: 17px; background: var(--vb-bg-soft); border-left: 4px solid var(--vb-accent);\n  padding: 10px 14px; margin: 0; border-radius: 0 6px 6px 0; overflow-wrap: anywhere;\n}\n@container (max-width: 480px) { .vb-formula-line { font-size: 14px; } }\n\n.vb-verdict { border-radius: 8px; padding: 10px 14px; margin-top: 16px; border: 1px solid var(--vb-line); overflow-wrap: anywhere; }\n.vb-verdict.vb-fits { border-color: var(--vb-ok); background: var(--vb-ok-bg); }\n.vb-verdict.vb-short { border-color: var(--vb-bad); background: var(--vb-bad-bg); }\n.vb-verdict-line { margin: 0; font-size: 16px; }\n.vb-fits .vb-verdict-line strong { color: var(--vb-ok); }\n.vb-short .vb-verdict-line strong { color: var(--vb-bad); }\n.vb-warnings { margin: 6px 0 0; padding-left: 20px; color: var(--vb-warn); }\n.vb-defaults { margin: 6px 0 0; font-size: 13px; color: var(--vb-muted); }\n.vb-defaults code { background: var(--vb-bg); border: 1px solid var(--vb-line); border-radius: 3px; padding: 0 3px; }\n\n.vb-bar-track { position: relative; height: 44px; margin: 30px 0 28px; }\n.vb-bar-capacity { position: absolute; top: 0; bottom: 0; left: 0; background: var(--vb-bg-soft); border: 1px solid var(--vb-field-border); border-radius: 4px; }\n.vb-bar-headroom { position: absolute; top: 0; bottom: 0;\n  background: repeating-linear-gradient(45deg, var(--vb-hatch), var(--vb-hatch) 5px, var(--vb-bg-soft) 5px, var(--vb-bg-soft) 10px); }\n.vb-bar-seg { position: absolute; top: 4px; bottom: 4px; border-right: 1px solid var(--vb-bg);\n  color: #fff; font-size: 12px; overflow: hidden; white-space: nowrap; display: flex; align-items: center; }\n.vb-bar-seg span { padding: 0 6px; text-shadow: 0 1px 1px rgba(0, 0, 0, 0.45); overflow: hidden; text-overflow: ellipsis; }\n.vb-bar-line { position: absolute; top: -22px; bottom: -4px; border-left: 2px dashed var(--vb-fg); }\n.vb-bar-line span { position: absolute; top: 0; font-size: 12px; white-space: nowrap; }\n.vb-bar-line.vb-usable span { right: 4px; }\n.vb-bar-line.vb-cap { top: -4px; bottom: -22px; border-left: 2px solid var(--vb-muted); }\n.vb-bar-line.vb-cap span { top: auto; bottom: 0; right: 4px; color: var(--vb-muted); }\n.vb-legend { list-style: none; display: flex; flex-wrap: wrap; gap: 4px 16px; padding: 0; margin: 6px 0 0; font-size: 13px; }\n.vb-swatch { display: inline-block; width: 11px; height: 11px; border-radius: 2px; margin-right: 6px; vertical-align: -1px; }\n.vb-swatch-headroom { background: repeating-linear-gradient(45deg, var(--vb-muted), var(--vb-muted) 3px, var(--vb-bg-soft) 3px, var(--vb-bg-soft) 6px); }\n\n.vb-scroll { overflow-x: auto; max-width: 100%; }\n.vb-table { border-collapse: collapse; width: 100%; font-size: 13px; }\n.vb-table th, .vb-table td { border-bottom: 1px solid var(--vb-line); padding: 6px 8px; text-align: left; vertical-align: top; }\n.vb-table thead th { background: var(--vb-bg-soft); font-weight: 600; white-space: nowrap; }\n.vb-table tbody th { font-weight: 600; min-width: 120px; }\n.vb-table tfoot th, .vb-table tfoot td { background: var(--vb-bg-soft); }\n.vb-table tfoot tr:first-child th, .vb-table tfoot tr:first-child td { border-top: 2px solid var(--vb-field-border); }\n.vb-num { text-align: right !important; white-space: nowrap; font-variant-numeric: tabular-nums; }\n.vb-formula { font-size: 12px; min-width: 220px; overflow-wrap: anywhere; }\n.vb-source { font-size: 11.5px; color: var(--vb-muted); overflow-wrap: anywhere; }\n.vb-table .vb-source { min-width: 150px; max-width: 260px; }\n.vb-options { max-height: 320px; overflow-y: auto; }\n\n.vb-metrics { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 4px 16px; margin: 0; font-size: 14px; }\n@container (max-width: 520px) { .vb-metrics { grid-template-columns: minmax(0, 1fr); gap: 0; } .vb-metrics dd { margin-bottom: 6px; } }\n.vb-metrics dt { color: var(--vb-muted); }\n.vb-metrics dt code { font-size: 11.5px; color: var(--vb-muted); }\n.vb-metrics dd { margin: 0; font-variant-numeric: tabular-nums; overflow-wrap: anywhere; }\n.vb-engine-formulas { font-size: 13px; padding-left: 18px; margin: 0; overflow-wrap: anywhere; }\n.vb-engine-formulas li { margin-bottom: 3px; }\n\n.vb-chart { width: 100%; max-width: 760px; height: auto; display: block; }\n.vb-chart .vb-grid { stroke: var(--vb-line); }\n.vb-chart .vb-axis { stroke: var(--vb-muted); }\n.vb-chart .vb-tick { font-size: 11px; fill: var(--vb-muted); }\n.vb-chart .vb-axis-label { font-size: 12px; fill: var(--vb-muted); }\n.vb-chart .vb-total-line { fill: none; stroke: var(--vb-accent); stroke-width: 2.5; }\n.vb-chart .vb-usable-line { stroke: var(--vb-fg); stroke-dasharray: 6 4; stroke-width: 1.5; }\n.vb-chart .vb-cap-line { stroke: var(--vb-muted); stroke-width: 1; }\n.vb-chart .vb-answer-line { stroke: var(--vb-fg); stroke-dasharray: 2 3; stroke-width: 1.5; }\n.vb-chart .vb-line-label { font-size: 11.5px; fill: var(--vb-fg); }\n.vb-chart .vb-pt-fit { fill: var(--vb-accent); stroke: var(--vb-bg); stroke-width: 1.5; }\n.vb-chart .vb-pt-short { fill: var(--vb-bg); stroke: var(--vb-bad); stroke-width: 2; }\n\n.vb-hints { padding-left: 18px; margin: 0; font-size: 14px; }\n.vb-hints li { margin-bottom: 6px; }\n.vb-apply {\n  font: inherit; font-size: 12px; padding: 1px 8px; margin-left: 4px; cursor: pointer; min-height: 24px;\n  border: 1px solid var(--vb-accent); color: var(--vb-accent); background: var(--vb-bg); border-radius: 4px;\n}\n.vb-apply:hover, .vb-apply:focus { background: var(--vb-accent); color: var(--vb-bg); }\n.vb-loading { color: var(--vb-muted); }\n.vb-range { font-size: 11.5px; color: var(--vb-muted); }\n.vb-more { margin: 0 0 10px; }\n.vb-more summary { margin-bottom: 8px; }\n.vb-skip { display: none; font-size: 14px; margin: 0 0 10px; }\n@container (max-width: 900px) { .vb-skip { display: inline-block; } }\n.vb-results:focus { outline: none; }\n.vb-scroll:focus-visible { outline: 2px solid var(--vb-accent); outline-offset: 2px; }\n.vb-grid-map { margin: 16px 0 0; }\n.vb-grid-map summary { font-size: 15px; font-weight: 600; }\n.vb-map td { font-size: 12px; }\n.vb-map caption { caption-side: top; text-align: left; padding: 4px 0 6px; }\n.vb-cell-fit { color: var(--vb-ok); }\n.vb-cell-short { color: var(--vb-bad); background: var(--vb-bad-bg); }\n.vb-drop { border: 2px dashed var(--vb-line); border-radius: 8px; padding: 10px 12px; font-size: 14px; }\n.vb-drop p { margin: 0 0 6px; }\n.vb-drop-over { border-color: var(--vb-accent); background: var(--vb-bg-soft); }\n.vb-drop-buttons .vb-apply { margin: 0 6px 0 0; font-size: 13px; }\n.vb-files-summary { margin-top: 8px; font-size: 13px; }\n.vb-files-table { border-collapse: collapse; width: 100%; }\n.vb-files-table caption { caption-side: top; text-align: left; font-weight: 600; padding: 0 0 4px; }\n.vb-files-table th { text-align: left; font-weight: 600; padding: 2px 8px 2px 0; vertical-align: top; white-space: nowrap; }\n.vb-files-table td { padding: 2px 0; overflow-wrap: anywhere; }\n.vb-files-list { margin: 6px 0 0; padding-left: 18px; overflow-wrap: anywhere; }\n.vb-found { margin: 4px 0; padding-left: 18px; font-size: 12px; overflow-wrap: anywhere; }\n.vb-look-for { margin: 4px 0; padding-left: 18px; font-size: 12.5px; overflow-wrap: anywhere; }\n.vb-measure h3 .vb-apply { vertical-align: middle; }\n/* Sections off screen are neither styled nor laid out until they come near the\n   viewport: a change then lays out what the reader sees (the budget), not the\n   whole report. Their last size is kept as their placeholder size. */\n.vb-figures > section, .vb-figures > details { content-visibility: auto; contain-intrinsic-size: auto 320px; }\n@media print { .vb-figures > section, .vb-figures > details { content-visibility: visible; } }\n';

  // web/src/dom.js
  var SVG_NS = "http://www.w3.org/2000/svg";
  function h(tag, attrs, ...children) {
    const el = document.createElement(tag);
    setAttrs(el, attrs);
    append(el, children);
    return el;
  }
  function s(tag, attrs, ...children) {
    const el = document.createElementNS(SVG_NS, tag);
    setAttrs(el, attrs);
    append(el, children);
    return el;
  }
  function setAttrs(el, attrs) {
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === void 0 || v === null || v === false) continue;
      if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
      else if (k === "style" && typeof v === "object") Object.assign(el.style, v);
      else el.setAttribute(k, v === true ? "" : String(v));
    }
  }
  function append(el, ...children) {
    for (const c of children.flat(Infinity)) {
      if (c === void 0 || c === null || c === false) continue;
      el.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
  }
  function replace(el, ...children) {
    el.replaceChildren();
    append(el, children);
  }

  // web/src/fields.js
  var BLOCK_OF = { inference: "inference", training: "training", image: "generation", video: "generation" };
  var TRAINING_FIELDS = [
    { key: "fw", field: "framework", kind: "choice" },
    { key: "method", field: "method", kind: "choice" },
    { key: "rank", field: "lora_rank", kind: "count" },
    { key: "targets", field: "lora_targets", kind: "list", placeholder: "all-linear" },
    { key: "dora", advanced: true, field: "use_dora", kind: "bool" },
    { key: "tl", field: "trainable_layers", kind: "count", placeholder: "2" },
    { key: "prec", field: "precision", kind: "choice" },
    { key: "opt", field: "optimizer", kind: "choice" },
    { key: "oimpl", advanced: true, field: "optimizer_implementation", kind: "choice" },
    { key: "mb", field: "micro_batch", kind: "count" },
    { key: "seq", field: "seq_len", kind: "tokens" },
    { key: "ga", field: "grad_accum", kind: "count" },
    { key: "ckpt", field: "checkpointing", kind: "choice" },
    { key: "tattn", advanced: true, field: "attention", kind: "choice" },
    { key: "shard", field: "sharding", kind: "choice" },
    { key: "toff", advanced: true, field: "offload", kind: "choice" },
    { key: "ttp", advanced: true, field: "tensor_parallel", kind: "count", placeholder: "1" },
    { key: "tpp", advanced: true, field: "pipeline_parallel", kind: "count", placeholder: "1" },
    { key: "tcp", advanced: true, field: "context_parallel", kind: "count", placeholder: "1" },
    { key: "sgs", advanced: true, field: "shard_group_size", kind: "count" },
    { key: "oib", advanced: true, field: "optimizer_in_backward", kind: "bool" },
    { key: "closs", advanced: true, field: "chunked_loss", kind: "bool" },
    { key: "aoff", advanced: true, field: "activation_offload", kind: "bool" },
    { key: "fp8", advanced: true, field: "fp8", kind: "bool" },
    { key: "tte", advanced: true, field: "train_text_encoder", kind: "bool" }
  ];
  var GENERATION_FIELDS = [
    { key: "gw", field: "width", kind: "count" },
    { key: "gh", field: "height", kind: "count" },
    { key: "frames", field: "frames", kind: "count", only: ["video"] },
    { key: "gb", field: "batch", kind: "count", placeholder: "1" },
    { key: "steps", advanced: true, field: "steps", kind: "count" },
    { key: "cfg", field: "cfg", kind: "bool" },
    { key: "goff", field: "offload", kind: "choice" },
    { key: "te", advanced: true, field: "text_encoder", kind: "choice" },
    { key: "vae", advanced: true, field: "vae", kind: "choice" },
    { key: "gattn", advanced: true, field: "attention", kind: "choice" },
    { key: "tiling", field: "vae_tiling", kind: "bool" },
    { key: "slicing", field: "vae_slicing", kind: "bool" },
    { key: "sp", advanced: true, field: "sequence_parallel", kind: "count", placeholder: "1" },
    { key: "fsdp", advanced: true, field: "fsdp", kind: "bool" },
    { key: "cw", advanced: true, field: "component_weights", kind: "map", placeholder: "transformer=nf4, text_encoder_2=int8" }
  ];
  for (const f of TRAINING_FIELDS) {
    f.block = "training";
    f.attr = `training-${f.field.replace(/_/g, "-")}`;
  }
  for (const f of GENERATION_FIELDS) {
    f.block = "generation";
    f.attr = `generation-${f.field.replace(/_/g, "-")}`;
  }
  var COMMON_KEYS = {
    wl: { hash: "wl", attr: "workload" },
    src: { hash: "src", attr: "source" },
    model: { hash: "model", attr: "model" },
    params: { hash: "params", attr: "params", kind: "params" },
    config: { hash: "config", attr: "config" },
    wbytes: { hash: "wbytes", attr: "weights-bytes", kind: "bytes" },
    pipe: { hash: "pipe", attr: "pipeline" },
    weights: { hash: "w", attr: "weights" },
    gpu: { hash: "gpu", attr: "gpu" },
    gpumem: { hash: "mem", attr: "gpu-memory", kind: "bytes" },
    gpucc: { hash: "cc", attr: "gpu-compute-capability", kind: "decimal" },
    gpusm: { hash: "sm", attr: "gpu-sm-count", kind: "count" },
    count: { hash: "n", attr: "gpu-count", kind: "count" },
    headroom: { hash: "headroom", attr: "headroom", kind: "decimal" }
  };
  var INFERENCE_KEYS = {
    engine: { hash: "engine", attr: "engine" },
    context: { hash: "ctx", attr: "context", kind: "tokens" },
    concurrency: { hash: "conc", attr: "concurrency", kind: "count" },
    kv: { hash: "kv", attr: "kv-cache-dtype" },
    tp: { hash: "tp", attr: "tensor-parallel", kind: "count" },
    gmu: { hash: "gmu", attr: "gpu-memory-utilization", kind: "decimal" },
    lmo: { hash: "lmo", attr: "language-model-only" },
    ngl: { hash: "ngl", attr: "n-gpu-layers", kind: "count" },
    sm: { hash: "sm", attr: "split-mode" },
    ts: { hash: "ts", attr: "tensor-split" },
    mg: { hash: "mg", attr: "main-gpu", kind: "count" },
    hfc: { hash: "hfc", attr: "cache-implementation" },
    hfa: { hash: "hfa", attr: "attn-implementation" },
    hfv: { hash: "hfv", attr: "transformers-version" },
    hfn: { hash: "hfn", attr: "max-new-tokens", kind: "tokens" },
    hfq: { hash: "hfq", attr: "quant-backend" },
    hfb: { hash: "hfb", attr: "nbits", kind: "count" },
    hfg: { hash: "hfg", attr: "q-group-size", kind: "count" },
    hfr: { hash: "hfr", attr: "residual-length", kind: "tokens" }
  };
  var LLAMA_KEYS = ["ngl", "sm", "ts", "mg"];
  var HF_KEYS = ["hfc", "hfa", "hfv", "hfn"];
  var HF_QUANT_KEYS = ["hfq", "hfb", "hfg", "hfr"];
  var DEFAULT_STATE = Object.freeze({
    wl: "",
    // '' = the core's default workload
    src: "params",
    // catalog | params | config | files (config.json and bytes read from the model's files)
    model: "",
    params: "13000000000",
    // the article's hypothetical 13B
    config: "",
    wbytes: "",
    // the checkpoint's exact bytes (config and files sources)
    pipe: "",
    weights: "",
    // '' = the checkpoint's own
    gpu: "",
    // '' = the core's default GPU
    gpumem: "",
    gpucc: "",
    // a custom GPU's CUDA compute capability ('' = not given)
    gpusm: "",
    // a custom GPU's streaming multiprocessors ('' = not given)
    count: "1",
    headroom: "",
    engine: "",
    context: "",
    concurrency: "",
    kv: "",
    tp: "",
    gmu: "",
    lmo: "",
    ngl: "",
    sm: "",
    ts: "",
    mg: "",
    hfc: "",
    hfa: "",
    hfv: "",
    hfn: "",
    hfq: "",
    hfb: "",
    hfg: "",
    hfr: "",
    ...Object.fromEntries([...TRAINING_FIELDS, ...GENERATION_FIELDS].map((f) => [f.key, ""]))
  });
  var KEYS = {
    ...COMMON_KEYS,
    ...INFERENCE_KEYS,
    ...Object.fromEntries([...TRAINING_FIELDS, ...GENERATION_FIELDS].map((f) => [f.key, { hash: f.key, attr: f.attr, kind: f.kind }]))
  };
  var NUMBER_KINDS = ["tokens", "count", "params", "bytes", "decimal"];
  var numberKind = (key) => KEYS[key] && NUMBER_KINDS.includes(KEYS[key].kind) ? KEYS[key].kind : "";
  var ATTRIBUTES = Object.fromEntries(Object.entries(KEYS).map(([key, k]) => [k.attr, key]));

  // web/src/i18n/en.js
  var en_default = {
    // ---- the language switch: each language named in itself
    "language.label": "Language",
    "language.en": "English",
    "language.nl": "Nederlands",
    // ---- status and errors of the page's own
    "status.loading": "Loading the estimator…",
    "status.planning": "Planning…",
    "error.no-module": 'vram-budget.js is not loaded: add <script src="vram-budget.js"> before this script',
    "error.call": (fn, message) => `${fn}() failed: ${message}`,
    "error.link-version": (v, reads) => `this link has state version v=${v}; this page reads v=${reads}`,
    "error.config-json": (message) => `is not valid JSON: ${message}`,
    "error.input": "Input error",
    "error.last-valid": "the figures below are from the last valid input.",
    "pending.pipeline": "name the pipeline (its Hugging Face id) to estimate it",
    "pending.files": "drop the model’s files (safetensors shards with config.json, or a GGUF file) to estimate it",
    "pending.config": "paste the model’s config.json to estimate it",
    "notice.not-estimated": (name) => `${name}: not estimated by this version`,
    "notice.keep-scenario": "The inputs on the left build the scenario below; keep it (or the link) and run it when the estimator lands, with this page or with {0}.",
    // ---- the form
    "form.label": "Scenario",
    "form.skip": "Skip to the results",
    "form.workload": "Workload",
    "form.model": "Model",
    "form.runtime": "Runtime",
    "form.training": "Fine-tuning",
    "form.generation": "Generation",
    "form.hardware": "Hardware",
    "form.more": "More settings",
    "results.label": "Results",
    "option.default": "default",
    "option.on": "on",
    "option.off": "off",
    "option.is-default": (name) => `${name} (default)`,
    "option.not-in-catalog": (value) => `${value} (not in catalog)`,
    "workload.help": (name, what) => `${name}: ${what}.`,
    "workload.inference": "Inference",
    "workload.inference.what": "serve or run a language model",
    "workload.training": "Fine-tuning",
    "workload.training.what": "train or fine-tune (full, LoRA, QLoRA)",
    "workload.image": "Image",
    "workload.image.what": "generate images with a diffusion pipeline",
    "workload.video": "Video",
    "workload.video.what": "generate video with a diffusion pipeline",
    "field.fw": "Framework",
    "field.fw.help": "Whose memory accounting: Trainer/TRL/PEFT (transformers), torchtune, torchtitan, Unsloth, DeepSpeed, diffusers’ scripts.",
    "field.method": "Method",
    "field.method.help": "full trains every weight; lora and qlora train small adapters on a frozen base (4-bit for qlora); freeze trains the last layers.",
    "field.rank": "LoRA rank",
    "field.rank.help": "Adapter rank r (lora and qlora only): each adapted matrix gains r × (in + out) parameters.",
    "field.rank.placeholder": "default",
    "field.targets": "LoRA targets",
    "field.targets.help": '"all-linear" or module names, comma-separated (q_proj, v_proj, ...).',
    "field.dora": "DoRA",
    "field.dora.help": "LoRA and QLoRA only: a magnitude per adapted output; each adapted module keeps two more outputs and rebuilds its weight norm.",
    "field.tl": "Trainable layers (freeze)",
    "field.tl.help": "Method freeze only: the last N decoder layers train; the earlier ones, the embeddings and the output layer stay frozen.",
    "field.prec": "Precision",
    "field.prec.help": "Mixed precision keeps fp32 master weights beside 16-bit compute copies; pure bf16 or fp32 does not.",
    "field.opt": "Optimizer",
    "field.oimpl": "AdamW step kernels",
    "field.oimpl.help": "Fused updates in place; foreach makes a copy of every state for the step (most frameworks fuse, diffusers' scripts do not); for-loop two of the largest.",
    "field.opt.help": "AdamW keeps two fp32 moments per trainable weight; 8-bit variants, Adafactor, SGD and Lion keep less; Muon (DeepSpeed, torchtitan) one momentum on the hidden layers' matrices.",
    "field.mb": "Micro-batch (per GPU)",
    "field.mb.help": "Samples in one forward/backward on each GPU: saved activations grow with it.",
    "field.mb.placeholder": "default",
    "field.seq": "Sequence length (tokens)",
    "field.seq.help": "Tokens per sample, e.g. 2048, 4k, 8K: activations and logits grow with it.",
    "field.seq.placeholder": "default",
    "field.ga": "Gradient accumulation",
    "field.ga.help": "Micro-batches summed before each optimizer step (memory stays that of one).",
    "field.ga.placeholder": "default",
    "field.ckpt": "Activation checkpointing",
    "field.ckpt.help": "Recompute activations in the backward pass instead of keeping them: less memory, more compute.",
    "field.tattn": "Attention kernel",
    "field.tattn.help": "flash and sdpa never hold the full score matrix; eager keeps seq_len² scores per head.",
    "field.shard": "Sharding",
    "field.shard.help": "DDP replicates the training state on every GPU; ZeRO and FSDP shard it across them.",
    "field.toff": "CPU offload",
    "field.toff.help": "Keep the optimizer state (and parameters) in host memory between uses.",
    "field.ttp": "Tensor parallel",
    "field.ttp.help": "GPUs each layer is split over.",
    "field.tpp": "Pipeline parallel",
    "field.tpp.help": "Stages the layers are split into.",
    "field.tcp": "Context parallel",
    "field.tcp.help": "GPUs sharing each sequence.",
    "field.sgs": "Shard group size",
    "field.sgs.help": "GPUs one FSDP/ZeRO shard group spans (hybrid sharding).",
    "field.sgs.placeholder": "all GPUs",
    "field.oib": "Optimizer in backward",
    "field.oib.help": "Step each parameter during the backward pass and free its gradient at once.",
    "field.closs": "Chunked loss",
    "field.closs.help": "Compute logits and cross-entropy in chunks instead of the whole vocab × tokens at once.",
    "field.aoff": "Activation offload",
    "field.aoff.help": "Move saved activations to CPU memory until the backward pass needs them.",
    "field.fp8": "fp8 matmuls",
    "field.fp8.help": "float8 training: fp8 compute copies of the weights.",
    "field.tte": "Train the text encoder",
    "field.tte.help": "Diffusion models: the text encoder is trained too.",
    "field.gw": "Width (px)",
    "field.gw.help": "Output width in pixels.",
    "field.gw.placeholder": "native",
    "field.gh": "Height (px)",
    "field.gh.help": "Output height in pixels.",
    "field.gh.placeholder": "native",
    "field.frames": "Frames",
    "field.frames.help": "Video frames; many video VAEs take 4k+1 frames (49, 81, ...).",
    "field.frames.placeholder": "native",
    "field.gb": "Batch",
    "field.gb.help": "Images or videos per call.",
    "field.steps": "Steps",
    "field.steps.help": "Denoising steps: time, not memory.",
    "field.steps.placeholder": "pipeline’s",
    "field.cfg": "Classifier-free guidance",
    "field.cfg.help": "Guidance runs the denoiser on a doubled batch (conditional and unconditional).",
    "field.goff": "Offload",
    "field.goff.help": "model: one component on the GPU at a time; sequential: layer by layer; group: groups of layers.",
    "field.te": "Text encoder",
    "field.te.help": "Where the prompt encoder runs: on the GPU, on the CPU (or precomputed), or sharded over the GPUs.",
    "field.vae": "VAE",
    "field.vae.help": "Where the latents are decoded: on the GPU or elsewhere.",
    "field.gattn": "Attention",
    "field.gattn.help": "efficient (flash / SDPA / xformers) never holds the score matrix; naive materialises it.",
    "field.tiling": "VAE tiling",
    "field.tiling.help": "Decode in overlapping tiles: the decode peak is often the real peak.",
    "field.slicing": "VAE slicing",
    "field.slicing.help": "Decode one sample of the batch at a time.",
    "field.sp": "Sequence parallel",
    "field.sp.help": "GPUs sharing the token sequence (Ulysses / ring attention).",
    "field.fsdp": "FSDP denoiser",
    "field.fsdp.help": "Shard the denoiser’s weights over the GPUs.",
    "field.cw": "Component formats",
    "field.cw.help": 'Per-component weight format, or "none" for a component not loaded.',
    "source.catalog": "Catalog model",
    "source.params": "Parameter count",
    "source.config": "Paste config.json",
    "source.files": "Model files",
    "field.model": "Model (catalog)",
    "field.model.help": (n) => `${n} models; type part of an id, a family (llama, qwen3_moe) or a size (70B), then pick with ↑ ↓ and Enter.`,
    "model.search": "search: id, family or size (qwen 8b)",
    "model.options": "Catalog models",
    "model.none": "no catalog model matches",
    "field.params": "Parameter count",
    "field.params.help": "e.g. 13000000000, 7B or 1.5e9. A bare count gives the weights only: with no architecture there is no KV cache or activation estimate.",
    "field.config": "config.json (Hugging Face, verbatim)",
    "field.config.help": "Paste the model’s config.json; the architecture is read from it.",
    "field.wbytes": "Checkpoint bytes (optional)",
    "field.wbytes.placeholder": "from the inventory",
    "field.wbytes.help": "The checkpoint’s exact size, e.g. the index’s metadata.total_size; the weights are then spread over the GPUs in the inventory’s proportions.",
    "field.pipe": "Pipeline (Hugging Face id)",
    "field.pipe.placeholder": "e.g. black-forest-labs/FLUX.1-dev",
    "field.pipe.help": "The diffusion pipeline: its text encoders, denoiser and VAE are read from the catalog.",
    "field.weights": "Weights format",
    "field.weights.own": "checkpoint’s own (default)",
    "field.weights.help": "How the weights are stored: the checkpoint’s own format, or a quantized one.",
    "field.engine": "Engine",
    "field.engine.help": "vLLM fills a fraction of the card with KV blocks; llama.cpp allocates its context exactly; transformers grows a cache.",
    "field.context": "Context (tokens)",
    "field.context.placeholder": "model max",
    "field.context.help": "Tokens per sequence: 8192, 32k, 128K.",
    "field.concurrency": "Concurrency",
    "field.concurrency.help": "Sequences resident at once.",
    "field.kv": "KV cache dtype",
    "field.kv.auto": "default (auto)",
    "field.kv.help": "Precision of the cached keys and values.",
    "field.tp": "Tensor parallel",
    "field.tp.help": "GPUs each layer is split over.",
    "field.gmu": "vLLM gpu_memory_utilization",
    "field.gmu.placeholder": (v) => `${v} (vLLM default)`,
    "field.gmu.help": "The fraction of the card vLLM reserves; the rest is its headroom.",
    "field.lmo": "vLLM: text only",
    "field.lmo.help": "vLLM's --language-model-only (or --limit-mm-per-prompt with every modality at 0): a vision-language model serves text; its encoder is not profiled and, from vLLM 0.15, its vision tower is not loaded.",
    "field.ngl": "GPU layers (-ngl)",
    "field.ngl.placeholder": "all + output",
    "field.ngl.help": "Layers on the GPU; the rest run from host memory.",
    "field.sm": "Split mode (several GPUs)",
    "field.sm.layer": "layer (default)",
    "field.sm.none": "none (main GPU only)",
    "field.sm.help": "How llama.cpp divides the model over GPUs.",
    "field.ts": "Tensor split",
    "field.ts.placeholder": "equal, e.g. 3,1",
    "field.ts.help": "One proportion per GPU: how llama.cpp shares the layers.",
    "field.mg": "Main GPU",
    "field.mg.help": "The GPU that holds the output and scratch buffers.",
    "field.hfc": "Cache implementation",
    "field.hfc.help": "The Cache class generate() builds: dynamic grows token by token, static preallocates the whole context, quantized packs K and V into a few bits, offloaded keeps two layers on the GPU.",
    "field.hfa": "Attention implementation",
    "field.hfa.version": "the version’s default",
    "field.hfa.help": "eager holds the full score matrix at prefill; sdpa and flash_attention_2 do not.",
    "field.hfv": "transformers version",
    "field.hfv.placeholder": "4.56 (current)",
    "field.hfv.help": "Older versions kept two copies of the cache while decoding and the logits of every prompt position.",
    "field.hfn": "New tokens (max_new_tokens)",
    "field.hfn.help": "Tokens generated after the prompt: the prompt is the context less these. 0 prefills the whole context, an upper bound.",
    "field.hfq": "Quantized cache backend",
    "field.hfq.help": "quanto: 2 or 4 bits; hqq: 1, 2, 3, 4 or 8 bits.",
    "field.hfb": "Bits (nbits)",
    "field.hfb.help": "Bits per cached value after quantization.",
    "field.hfg": "Group size (q_group_size)",
    "field.hfg.help": "Values that share one scale and one zero point.",
    "field.hfr": "Residual length",
    "field.hfr.help": "Recent tokens kept unquantized before they are folded into the quantized part.",
    "field.gpu": "GPU (usable memory the framework sees)",
    "field.gpu.help": "The total torch.cuda.mem_get_info() reports, not the marketing figure.",
    "field.gpumem": "Or a custom GPU’s memory",
    "field.gpumem.placeholder": "e.g. 24 GB or 22.5 GiB",
    "field.gpumem.help": "Replaces the GPU above: the total the framework sees (GB = 10⁹ B, GiB = 2³⁰ B).",
    "field.gpucc": "Its CUDA compute capability",
    "field.gpucc.placeholder": "e.g. 8.9",
    "field.gpusm": "Its streaming multiprocessors",
    "field.gpusm.placeholder": "e.g. 142",
    "field.gpusm.help": "For a custom GPU, torch’s multi_processor_count (132 H100 SXM, 108 A100, 128 RTX 4090): the driver reserves a stack for every resident thread, and vLLM’s sampler keeps one scratch row per SM. Empty: not known (the formula says what is assumed).",
    "field.gpucc.help": "For a custom GPU, as torch prints it (8.0 A100, 8.9 L40S, 9.0 H100, 12.0 RTX 5090): kernels whose memory depends on it, such as vLLM’s MXFP4 expert padding. Empty: not known.",
    "field.count": "GPU count",
    "field.count.help": "GPUs in the set.",
    "field.headroom": "Headroom (%)",
    "field.headroom.help": "Memory kept free for safety.",
    "quantity.read-as": (what) => `read as ${what}`,
    "quantity.unit.tokens": "tokens",
    "quantity.unit.params": "parameters",
    "quantity.unit.bytes": "B",
    // ---- model files
    "files.files": "Model files",
    "files.folder": "Model folder",
    "files.drop": "Drop the model’s files or folder here: safetensors shards with {0} (and the index), or one GGUF file.",
    "files.choose-files": "Choose files…",
    "files.choose-folder": "Choose a folder…",
    "files.local": "Only the headers are read, here in the page: nothing is uploaded.",
    "files.none-model": (names) => `none of these is a model file (${names}): give .safetensors shards, their index, config.json, model_index.json or a .gguf file`,
    "files.none-given": "no file was given",
    "files.reading": (n) => n === 1 ? "Reading 1 file header…" : `Reading ${n} file headers…`,
    "files.as-is": (text) => text,
    "files.format": "Format",
    "files.version": (v) => ` (version ${v})`,
    "files.tensors-row": "Tensors",
    "files.tensors": (n, exact, bytes) => `${n} tensors, ${exact} ≈ ${bytes}`,
    "files.by-dtype": "By dtype",
    "files.blocks": (n) => `${n} blocks`,
    "files.tied": "tied embeddings",
    "files.untied": "separate output head",
    "files.architecture": "Architecture",
    "files.pipeline": (cls) => `diffusers pipeline${cls ? ` (${cls})` : ""}`,
    "files.model": "Model",
    "files.config-found": "config.json found: the estimate uses it with the exact checkpoint bytes",
    "files.weights-only": (n) => `no config.json: the weights alone are estimated (${n} parameters from the shapes); drop the config.json with the files for the KV cache and activations`,
    "files.no-config": "no config.json: drop it together with the files to estimate the KV cache and activations",
    "files.read": "Read from the files",
    "files.file-read": (name, read, size) => `${name}: ${read} read of ${size}`,
    "files.skipped": (names) => `skipped (not model files): ${names}`,
    // ---- link, scenario JSON, import
    "share.link": "Link to this estimate",
    "share.copy": "Copy link",
    "share.copied": " Link copied.",
    "share.copy-this": (url) => ` Copy this link: ${url}`,
    "share.accuracy": "How close these estimates come to measurements",
    "share.accuracy-what": "{0}: every measured case, the error per metric and the rules of thumb beside it (ACCURACY.md).",
    "share.scenario": "Scenario JSON (export, import, command-line tool)",
    "field.import": "Load a scenario",
    "field.import.help": "Paste a scenario (CONTRACT v1) to fill the form from it.",
    "import.load": "Load",
    "import.loaded": "Loaded.",
    "import.loaded-without": (paths) => `Loaded; the form has no input for ${paths}, so those are left out.`,
    "import.not-json": (message) => `Not valid JSON: ${message}`,
    "import.not-object": "a scenario is a JSON object",
    // ---- the report
    "unit.tokens": (n) => `${n} tokens`,
    "unit.size": (w, h2) => `${w} × ${h2} px`,
    "unit.px": (n) => `${n} px`,
    "unit.frames": (n) => `${n} frames`,
    "unit.samples": (n) => `batch ${n}`,
    "worked.title": "Raw weights first",
    "worked.none": "No weights component in this report.",
    "worked.lower-bound": "A lower bound, not a GPU recommendation: everything below is added on top.",
    "verdict.fits": "Fits",
    "verdict.short": "Does not fit",
    "verdict.per-gpu": (total, usable) => `per GPU ${total} of ${usable} usable`,
    "verdict.on": (gpu) => `on ${gpu}`,
    "verdict.free": (free, exact) => `${free} free (${exact})`,
    "verdict.short-by": (short, exact) => `short by ${short} (${exact})`,
    "verdict.warnings": "Warnings",
    "verdict.defaults": "Defaults used:",
    "gpu.custom": "custom GPU",
    "bar.title": "Budget per GPU",
    "bar.label": (parts, usable, capacity) => `Budget per GPU: ${parts}; usable ${usable} of ${capacity}`,
    "bar.headroom-kept": "headroom kept free",
    "bar.usable": (b) => `usable ${b}`,
    "bar.capacity": (b) => `capacity ${b}`,
    "bar.headroom": "headroom",
    "table.title": "Every figure and how it was computed",
    "table.region": "Every figure (scrollable table)",
    "table.component": "Component",
    "table.exact": "Bytes (exact)",
    "table.formula": "Formula",
    "table.source": "Source",
    "table.total": "Total per GPU",
    "table.sum": "sum of the components above",
    "table.usable": "Usable",
    "table.capacity": "Capacity (framework total)",
    "gpus.title": (mode) => `Per GPU (llama.cpp, split mode ${mode})`,
    "gpus.region": "Per GPU (scrollable table)",
    "gpus.col.gpu": "GPU",
    "gpus.col.layers": "Layers",
    "gpus.col.weights": "Weights",
    "gpus.col.kv": "KV cache",
    "gpus.col.compute": "Compute buffer",
    "gpus.col.context": "CUDA context",
    "gpus.col.total": "Total",
    "gpus.gpu": (n) => `GPU ${n}`,
    "gpus.fullest": (n) => `GPU ${n} (fullest)`,
    "gpus.idle": "idle",
    "gpus.host": "Host memory",
    "gpus.host-layers": (last) => ` + layers 0–${last}`,
    "gpus.fullest-decides": "The fullest GPU decides the fit; the budget above is its own.",
    "gpus.pipelined": (b) => `Pipelined micro-batches may add up to ${b} per GPU (see the warnings).`,
    "metrics.title": "Metrics",
    "metrics.range": (r) => `range ${r}`,
    "metrics.engine": (engine) => `How ${engine} spends the card`,
    "metrics.the-engine": "How the engine spends the card",
    "metric.weights_bytes": "Weights resident on the GPU",
    "metric.kv_cache_bytes": "KV cache allocated",
    "metric.kv_bytes_per_token": "KV bytes per token (all layers)",
    "metric.kv_capacity_tokens": "Tokens the KV pool holds",
    "metric.max_concurrency": "Sequences of this context that fit",
    "metric.activation_bytes": "Peak transient working memory",
    "metric.non_torch_bytes": "Memory outside the framework allocator",
    "metric.cuda_graph_bytes": "CUDA graph pools",
    "metric.peak_allocated_bytes": "Peak of live tensors",
    "metric.peak_reserved_bytes": "Peak held by the allocator",
    "metric.peak_device_bytes": "Peak the driver sees",
    "metric.max_context_tokens": "Longest context that fits",
    "measure.title": "Measure it",
    "measure.copy": "Copy",
    "measure.copied": "Copied",
    "measure.command": "Start the engine with these settings; its startup log prints what this estimate predicts:",
    "measure.step": "Run one representative step with these settings; it prints the peaks:",
    // ---- reconcile with a measurement
    "reconcile.title": "Reconcile with a measurement",
    "reconcile.log": "A vLLM or llama.cpp startup log, or PyTorch’s memory output",
    "reconcile.local": "Read here, in the page: the figures it prints are compared with this estimate.",
    "reconcile.run": "Compare",
    "reconcile.no-scenario": "Give a valid scenario first.",
    "reconcile.in-range": "(in range)",
    "reconcile.out-of-range": "(outside range)",
    "reconcile.region": "Measured and estimated",
    "reconcile.col.metric": "Metric",
    "reconcile.col.measured": "Measured",
    "reconcile.col.estimated": "Estimated",
    "reconcile.col.error": "Error",
    "reconcile.col.meaning": "What it means",
    "reconcile.found": (n) => n === 1 ? "The 1 line read" : `The ${n} lines read`,
    "reconcile.line": (n) => `line ${n}:`,
    "reconcile.case": "As an accuracy case (one line of a .jsonl file)",
    // ---- the chart and the fit map
    "chart.title": "Per-GPU total vs context",
    "chart.title-seq": "Per-GPU total vs seq_len",
    "chart.none": "no sweep",
    "chart.label": (n, points) => `Per-GPU total against context at concurrency ${n}: ${points}`,
    "chart.label-seq": (n, points) => `Per-GPU total against seq_len at micro-batch ${n}: ${points}`,
    "chart.axis": (n) => `context (tokens per sequence, log scale), concurrency ${n}`,
    "chart.axis-seq": (n) => `seq_len (tokens per sample, log scale), micro-batch ${n}`,
    "chart.point": (tokens, bytes, exact, fits) => `${tokens}: ${bytes} (${exact}) — ${fits ? "fits" : "does not fit"}`,
    "chart.answer": (n) => `longest that fits: ${n}`,
    "chart.title-size": "Per-GPU total vs image size",
    "chart.label-size": (n, points) => `Per-GPU total against the size at batch ${n}: ${points}`,
    "chart.axis-size": (n) => `height (px, log scale; the width keeps the aspect ratio), batch ${n}`,
    "chart.marked-size": (x) => `The vertical line marks the plan's largest size that fits: ${x}.`,
    "chart.title-frames": "Per-GPU total vs frames",
    "chart.label-frames": (n, points) => `Per-GPU total against the frames at batch ${n}: ${points}`,
    "chart.axis-frames": (n) => `frames (log scale), batch ${n}`,
    "chart.marked-frames": (x) => `The vertical line marks the plan's most frames that fit: ${x}.`,
    "chart.title-mb": "Per-GPU total vs micro-batch",
    "chart.label-mb": (n, points) => `Per-GPU total against the micro-batch: ${points}`,
    "chart.axis-mb": () => "micro-batch (samples per step per GPU, log scale)",
    "chart.marked-mb": (x) => `The vertical line marks the plan's largest micro-batch that fits: ${x}.`,
    "chart.title-batch": "Per-GPU total vs batch",
    "chart.label-batch": (n, points) => `Per-GPU total against the batch: ${points}`,
    "chart.axis-batch": () => "batch (images per call, log scale)",
    "chart.marked-batch": (x) => `The vertical line marks the plan's largest batch that fits: ${x}.`,
    "chart.answer-most": (n) => `largest that fits: ${n}`,
    "chart.marked": (tokens) => `The vertical line marks the plan's longest context that fits: ${tokens}.`,
    "chart.marked-seq": (tokens) => `The vertical line marks the plan's longest seq_len that fits: ${tokens}.`,
    "chart.points": "Filled points fit under the usable line; hollow red points do not.",
    "map.context": "context",
    "map.concurrency": "concurrency",
    "map.sequences": "concurrent sequences",
    "map.micro-batch": "micro-batch",
    "map.samples": "samples per GPU",
    "map.title": (row, col) => `Fit map: ${row} × ${col}`,
    "map.beyond": "beyond any real system",
    "map.region": "Fit map (scrollable table)",
    "map.caption": (unit, row, what, usable) => `Per-GPU total in ${unit} for each ${row} (rows) and number of ${what} (columns); ✓ fits in ${usable} usable, ✗ does not.`,
    "map.most": (what, row, list) => `Most ${what} that fit at each ${row}: ${list.join(", ")}.`,
    // ---- the plan
    "plan.title": "Plan",
    "plan.none": "no plan",
    "plan.na": "not available for this model",
    "plan.max-context": "Longest context that fits",
    "plan.model-limit": (n) => `(model limit ${n})`,
    "plan.max-concurrency": "Most concurrent sequences at this context",
    "plan.smallest-tp": "Smallest tensor parallel that fits",
    "plan.no-tp": "none up to 8 GPUs",
    "plan.max-layers": "Most layers on the GPU(s) (llama.cpp n_gpu_layers)",
    "plan.no-layers": "none: not even 0 layers fit",
    "plan.layers-of": (n, of) => `${n} of ${of}`,
    "plan.all-layers": "(every layer and the output)",
    "plan.host": (b) => `host memory ${b}`,
    "plan.params": "Parameters (active per token)",
    "plan.roles": "Largest parameter groups",
    "plan.apply": "Apply",
    "plan.apply-name": (change) => `Apply: ${change}`,
    "plan.use": "Use",
    "plan.use-name": (gpus) => `Use ${gpus}`,
    "plan.no-price": "no price",
    "plan.price": (p) => `$${p}`,
    "plan.hints": "What would change the picture",
    "plan.no-hints": "No hints for this scenario.",
    "plan.options": "GPU options that fit, cheapest first",
    "plan.options-region": "GPU options (scrollable)",
    "plan.col.gpu": "GPU",
    "plan.col.count": "Count",
    "plan.col.memory": "Memory each",
    "plan.col.needed": "Needed each",
    "plan.col.price": "USD/h (whole set)",
    "plan.no-options": "No catalogued GPU set fits.",
    "plan.no-seq": "none: not even the shortest fits",
    "plan.no-gpus": (n) => `none up to ${n}`,
    "plan.replicates": "(this sharding replicates the states: more GPUs add replicas, not room)",
    "plan.divides": "(the sharding divides the states)",
    "plan.max-seq": "Longest seq_len that fits the whole card",
    "plan.max-seq-headroom": "Longest seq_len keeping the headroom free",
    "plan.max-mb": "Largest micro-batch at this seq_len",
    "plan.max-mb-sample": "Largest micro-batch at this sample size",
    "plan.replicated": "one (diffusers’ scripts keep the whole model on every GPU)",
    "plan.no-mb": "none",
    "plan.fewest": "Fewest GPUs of this model",
    "plan.max-size": "Largest size at this aspect ratio",
    "plan.no-size": "none: not even the smallest size fits",
    "plan.search-limit": "(the search’s limit)",
    "plan.max-frames": "Most frames at this size",
    "plan.no-frames": "none: not even one frame fits",
    "plan.max-batch": "Largest batch at this size",
    "plan.one-gpu": "(this runtime generates on one GPU)",
    "plan.splits": "(Ulysses splits the tokens, FSDP the weights)",
    // ---- the standalone page (index.html, through page.js)
    "page.title": "VRAM Budget — how much GPU memory does this configuration need?",
    "page.tagline": "A GPU memory calculator that shows its working. Everything runs in this page; nothing is sent anywhere.",
    "page.about": "About",
    "page.intro.lead": "VRAM is a budget, not a model label.",
    "page.intro.1": "{0} GPU memory is spent by separate categories: model weights, the inference KV cache, temporary activations, framework workspaces, the allocator cache and, during training, gradients and optimizer state. A model that fits in one configuration does not prove it fits with a longer context, a larger batch, another precision or more concurrent requests.",
    "page.intro.2": `So plan from the exact model and runtime settings, not from "7B" or "70B". Start with the raw weights (the article's hypothetical 13-billion-parameter model in a 16-bit format is 26,000,000,000 bytes, about 24.2 GiB, a lower bound) and add each category on top. Every figure below says how it was computed; measure the configuration you will run before you commit to it, and leave headroom.`,
    "page.walk.title": "The article, step by step",
    "page.walk.what": "Each step sets the calculator below to the article's point; change anything from there.",
    "page.step.weights.link": "Raw weights first",
    "page.step.weights": "{0}: 13,000,000,000 parameters × 2 bytes, a lower bound.",
    "page.step.quantization.link": "Quantization's real overheads",
    "page.step.quantization": "{0}: 4-bit weights still carry scales, zero points and layers kept in 16 bits.",
    "page.step.kv.link": "KV cache and concurrency",
    "page.step.kv": "{0}: the weights load, but 8 sequences of 32k tokens do not fit.",
    "page.step.working.link": "Working memory",
    "page.step.working": "{0}: activations, workspaces and the CUDA context on top.",
    "page.step.training.link": "Training's different shape",
    "page.step.training": "{0}: gradients, optimizer state, saved activations and fp32 master copies.",
    "page.step.sharding.link": "DDP vs FSDP vs checkpointing",
    "page.step.sharding": "{0}: replicate the state, shard it, or recompute activations.",
    "page.step.gpus.link": "More GPUs only where the software divides the work",
    "page.step.gpus": "{0}: tensor parallelism splits each layer over four cards.",
    "page.step.measure.link": "Measure, and leave headroom",
    "page.step.measure": "{0}: plan with 20 % kept free, then measure the configuration you will run.",
    "page.footer.units": "GiB = 2{0} bytes, GB = 10{1} bytes. The estimator is a C++ core compiled to WebAssembly; the same scenario JSON works with the command-line tool ({2}). The URL holds the inputs, so a link reproduces an estimate.",
    "page.footer.accuracy.link": "Accuracy against measurements",
    "page.footer.accuracy": "{0}: every measured case the estimator is scored on, its error per workload, engine and metric, the ranges' coverage and the rules of thumb scored on the same cases. Generated from the cases by {1}."
  };

  // web/src/i18n/nl.js
  var nl_default = {
    // ---- de taalkeuze: elke taal in haar eigen naam
    "language.label": "Taal",
    "language.en": "English",
    "language.nl": "Nederlands",
    // ---- status en eigen foutmeldingen van de pagina
    "status.loading": "De schatter wordt geladen…",
    "status.planning": "Plan wordt berekend…",
    "error.no-module": 'vram-budget.js is niet geladen: zet <script src="vram-budget.js"> vóór dit script',
    "error.call": (fn, message) => `${fn}() mislukt: ${message}`,
    "error.link-version": (v, reads) => `deze link heeft statusversie v=${v}; deze pagina leest v=${reads}`,
    "error.config-json": (message) => `is geen geldige JSON: ${message}`,
    "error.input": "Invoerfout",
    "error.last-valid": "de cijfers hieronder horen bij de laatste geldige invoer.",
    "pending.pipeline": "geef de pipeline op (haar Hugging Face-id) om die te schatten",
    "pending.files": "sleep de bestanden van het model hierheen (safetensors-shards met config.json, of een GGUF-bestand) om het te schatten",
    "pending.config": "plak de config.json van het model om het te schatten",
    "notice.not-estimated": (name) => `${name}: nog niet geschat door deze versie`,
    "notice.keep-scenario": "De invoer links bouwt het scenario hieronder op; bewaar het (of de link) en reken het door zodra de schatter er is, met deze pagina of met {0}.",
    // ---- het formulier
    "form.label": "Scenario",
    "form.skip": "Naar de resultaten",
    "form.workload": "Workload",
    "form.model": "Model",
    "form.runtime": "Runtime",
    "form.training": "Fine-tuning",
    "form.generation": "Generatie",
    "form.hardware": "Hardware",
    "form.more": "Meer instellingen",
    "results.label": "Resultaten",
    "option.default": "standaard",
    "option.on": "aan",
    "option.off": "uit",
    "option.is-default": (name) => `${name} (standaard)`,
    "option.not-in-catalog": (value) => `${value} (niet in de catalogus)`,
    "workload.help": (name, what) => `${name}: ${what}.`,
    "workload.inference": "Inferentie",
    "workload.inference.what": "een taalmodel serveren of draaien",
    "workload.training": "Fine-tuning",
    "workload.training.what": "trainen of fine-tunen (full, LoRA, QLoRA)",
    "workload.image": "Beeld",
    "workload.image.what": "beelden genereren met een diffusiepipeline",
    "workload.video": "Video",
    "workload.video.what": "video genereren met een diffusiepipeline",
    "field.fw": "Framework",
    "field.fw.help": "Wiens geheugenboekhouding: Trainer/TRL/PEFT (transformers), torchtune, torchtitan, Unsloth, DeepSpeed, de scripts van diffusers.",
    "field.method": "Methode",
    "field.method.help": "full traint elk gewicht; lora en qlora trainen kleine adapters op een bevroren basis (4-bits bij qlora); freeze traint de laatste lagen.",
    "field.rank": "LoRA-rang",
    "field.rank.help": "Adapterrang r (alleen lora en qlora): elke aangepaste matrix krijgt r × (in + uit) parameters erbij.",
    "field.rank.placeholder": "standaard",
    "field.targets": "LoRA-doelen",
    "field.targets.help": '"all-linear" of modulenamen, gescheiden door komma’s (q_proj, v_proj, ...).',
    "field.dora": "DoRA",
    "field.dora.help": "Alleen LoRA en QLoRA: een magnitude per aangepaste uitvoer; elke aangepaste module houdt twee extra uitvoeren bij en berekent de norm van zijn gewicht opnieuw.",
    "field.tl": "Trainbare lagen (freeze)",
    "field.tl.help": "Alleen bij de methode freeze: de laatste N decoderlagen trainen; de eerdere lagen, de embeddings en de uitvoerlaag blijven bevroren.",
    "field.prec": "Precisie",
    "field.prec.help": "Mixed precision houdt fp32-mastergewichten naast 16-bits rekenkopieën; puur bf16 of fp32 doet dat niet.",
    "field.opt": "Optimizer",
    "field.oimpl": "AdamW-stapkernels",
    "field.oimpl.help": "Fused werkt ter plekke bij; foreach maakt voor de stap een kopie van elke toestand (de meeste frameworks fusen, de scripts van diffusers niet); for-loop twee van de grootste.",
    "field.opt.help": "AdamW houdt twee fp32-momenten per trainbaar gewicht bij; 8-bitsvarianten, Adafactor, SGD en Lion houden minder bij; Muon (DeepSpeed, torchtitan) één momentum op de matrices van de verborgen lagen.",
    "field.mb": "Micro-batch (per GPU)",
    "field.mb.help": "Samples in één forward/backward op elke GPU: de opgeslagen activaties groeien mee.",
    "field.mb.placeholder": "standaard",
    "field.seq": "Sequentielengte (tokens)",
    "field.seq.help": "Tokens per sample, bijv. 2048, 4k, 8K: activaties en logits groeien mee.",
    "field.seq.placeholder": "standaard",
    "field.ga": "Gradiëntaccumulatie",
    "field.ga.help": "Micro-batches die worden opgeteld vóór elke optimizerstap (het geheugen blijft dat van één).",
    "field.ga.placeholder": "standaard",
    "field.ckpt": "Activation checkpointing",
    "field.ckpt.help": "Activaties in de backward pass opnieuw berekenen in plaats van ze te bewaren: minder geheugen, meer rekenwerk.",
    "field.tattn": "Attention-kernel",
    "field.tattn.help": "flash en sdpa houden nooit de volledige scorematrix vast; eager bewaart seq_len² scores per head.",
    "field.shard": "Sharding",
    "field.shard.help": "DDP repliceert de trainingsstatus op elke GPU; ZeRO en FSDP verdelen die over de GPU’s.",
    "field.toff": "CPU-offload",
    "field.toff.help": "De optimizerstatus (en de parameters) tussen gebruik door in het hostgeheugen bewaren.",
    "field.ttp": "Tensor parallel",
    "field.ttp.help": "GPU’s waarover elke laag wordt verdeeld.",
    "field.tpp": "Pipeline parallel",
    "field.tpp.help": "Stages waarin de lagen worden opgesplitst.",
    "field.tcp": "Context parallel",
    "field.tcp.help": "GPU’s die elke sequentie delen.",
    "field.sgs": "Grootte van de shardgroep",
    "field.sgs.help": "GPU’s die één FSDP/ZeRO-shardgroep omvat (hybride sharding).",
    "field.sgs.placeholder": "alle GPU’s",
    "field.oib": "Optimizer in backward",
    "field.oib.help": "Elke parameter tijdens de backward pass bijwerken en zijn gradiënt meteen vrijgeven.",
    "field.closs": "Chunked loss",
    "field.closs.help": "Logits en cross-entropy in stukken berekenen in plaats van het hele vocabulaire × tokens tegelijk.",
    "field.aoff": "Activatie-offload",
    "field.aoff.help": "Opgeslagen activaties naar het CPU-geheugen verplaatsen tot de backward pass ze nodig heeft.",
    "field.fp8": "fp8-matmuls",
    "field.fp8.help": "float8-training: fp8-rekenkopieën van de gewichten.",
    "field.tte": "Tekstencoder meetrainen",
    "field.tte.help": "Diffusiemodellen: de tekstencoder wordt ook getraind.",
    "field.gw": "Breedte (px)",
    "field.gw.help": "Breedte van de uitvoer in pixels.",
    "field.gw.placeholder": "native",
    "field.gh": "Hoogte (px)",
    "field.gh.help": "Hoogte van de uitvoer in pixels.",
    "field.gh.placeholder": "native",
    "field.frames": "Frames",
    "field.frames.help": "Videoframes; veel video-VAE’s nemen 4k+1 frames (49, 81, ...).",
    "field.frames.placeholder": "native",
    "field.gb": "Batch",
    "field.gb.help": "Beelden of video’s per aanroep.",
    "field.steps": "Stappen",
    "field.steps.help": "Denoisingstappen: ze kosten tijd, geen geheugen.",
    "field.steps.placeholder": "van de pipeline",
    "field.cfg": "Classifier-free guidance",
    "field.cfg.help": "Guidance draait de denoiser op een verdubbelde batch (conditioneel en onconditioneel).",
    "field.goff": "Offload",
    "field.goff.help": "model: één component tegelijk op de GPU; sequential: laag voor laag; group: groepen lagen.",
    "field.te": "Tekstencoder",
    "field.te.help": "Waar de promptencoder draait: op de GPU, op de CPU (of vooraf berekend), of verdeeld over de GPU’s.",
    "field.vae": "VAE",
    "field.vae.help": "Waar de latents worden gedecodeerd: op de GPU of elders.",
    "field.gattn": "Attention",
    "field.gattn.help": "efficient (flash / SDPA / xformers) houdt nooit de scorematrix vast; naive materialiseert die.",
    "field.tiling": "VAE-tiling",
    "field.tiling.help": "In overlappende tegels decoderen: de decodeerpiek is vaak de echte piek.",
    "field.slicing": "VAE-slicing",
    "field.slicing.help": "Één sample van de batch tegelijk decoderen.",
    "field.sp": "Sequence parallel",
    "field.sp.help": "GPU’s die de tokensequentie delen (Ulysses / ring attention).",
    "field.fsdp": "FSDP voor de denoiser",
    "field.fsdp.help": "De gewichten van de denoiser over de GPU’s verdelen.",
    "field.cw": "Formaten per component",
    "field.cw.help": 'Gewichtsformaat per component, of "none" voor een component die niet wordt geladen.',
    "source.catalog": "Catalogusmodel",
    "source.params": "Aantal parameters",
    "source.config": "config.json plakken",
    "source.files": "Modelbestanden",
    "field.model": "Model (catalogus)",
    "field.model.help": (n) => `${n} modellen; typ een deel van een id, een familie (llama, qwen3_moe) of een grootte (70B) en kies met ↑ ↓ en Enter.`,
    "model.search": "zoek: id, familie of grootte (qwen 8b)",
    "model.options": "Catalogusmodellen",
    "model.none": "geen catalogusmodel komt overeen",
    "field.params": "Aantal parameters",
    "field.params.help": "bijv. 13000000000, 7B of 1,5e9. Alleen een aantal geeft alleen de gewichten: zonder architectuur is er geen schatting van de KV-cache of de activaties.",
    "field.config": "config.json (Hugging Face, letterlijk)",
    "field.config.help": "Plak de config.json van het model; de architectuur wordt eruit gelezen.",
    "field.wbytes": "Checkpointbytes (optioneel)",
    "field.wbytes.placeholder": "uit de inventaris",
    "field.wbytes.help": "De exacte grootte van de checkpoint, bijv. metadata.total_size uit de index; de gewichten worden dan over de GPU’s verdeeld in de verhoudingen van de inventaris.",
    "field.pipe": "Pipeline (Hugging Face-id)",
    "field.pipe.placeholder": "bijv. black-forest-labs/FLUX.1-dev",
    "field.pipe.help": "De diffusiepipeline: haar tekstencoders, denoiser en VAE worden uit de catalogus gelezen.",
    "field.weights": "Gewichtsformaat",
    "field.weights.own": "eigen formaat van de checkpoint (standaard)",
    "field.weights.help": "Hoe de gewichten zijn opgeslagen: in het eigen formaat van de checkpoint, of gekwantiseerd.",
    "field.engine": "Engine",
    "field.engine.help": "vLLM vult een deel van de kaart met KV-blokken; llama.cpp reserveert zijn context exact; transformers laat een cache groeien.",
    "field.context": "Context (tokens)",
    "field.context.placeholder": "max. van het model",
    "field.context.help": "Tokens per sequentie: 8192, 32k, 128K.",
    "field.concurrency": "Gelijktijdige verzoeken",
    "field.concurrency.help": "Sequenties die tegelijk in het geheugen staan.",
    "field.kv": "Dtype van de KV-cache",
    "field.kv.auto": "standaard (auto)",
    "field.kv.help": "Precisie van de gecachete keys en values.",
    "field.tp": "Tensor parallel",
    "field.tp.help": "GPU’s waarover elke laag wordt verdeeld.",
    "field.gmu": "vLLM gpu_memory_utilization",
    "field.gmu.placeholder": (v) => `${v} (standaard van vLLM)`,
    "field.gmu.help": "Het deel van de kaart dat vLLM reserveert; de rest is zijn speelruimte.",
    "field.lmo": "vLLM: alleen tekst",
    "field.lmo.help": "vLLM's --language-model-only (of --limit-mm-per-prompt met elke modaliteit op 0): een beeld-taalmodel bedient alleen tekst; de encoder wordt niet geprofileerd en vanaf vLLM 0.15 wordt de vision-toren niet geladen.",
    "field.ngl": "GPU-lagen (-ngl)",
    "field.ngl.placeholder": "alle + output",
    "field.ngl.help": "Lagen op de GPU; de rest draait vanuit het hostgeheugen.",
    "field.sm": "Splitmodus (meerdere GPU’s)",
    "field.sm.layer": "layer (standaard)",
    "field.sm.none": "none (alleen de hoofd-GPU)",
    "field.sm.help": "Hoe llama.cpp het model over de GPU’s verdeelt.",
    "field.ts": "Tensor split",
    "field.ts.placeholder": "gelijk, bijv. 3,1",
    "field.ts.help": "Één verhouding per GPU, gescheiden door komma’s: hoe llama.cpp de lagen verdeelt.",
    "field.mg": "Hoofd-GPU",
    "field.mg.help": "De GPU die de output en de scratchbuffers bevat.",
    "field.hfc": "Cache-implementatie",
    "field.hfc.help": "De Cache-klasse die generate() bouwt: dynamic groeit per token, static reserveert de hele context vooraf, quantized pakt K en V in een paar bits, offloaded houdt twee lagen op de GPU.",
    "field.hfa": "Attention-implementatie",
    "field.hfa.version": "standaard van de versie",
    "field.hfa.help": "eager houdt bij de prefill de volledige scorematrix vast; sdpa en flash_attention_2 niet.",
    "field.hfv": "transformers-versie",
    "field.hfv.placeholder": "4.56 (huidig)",
    "field.hfv.help": "Oudere versies hielden tijdens het decoderen twee kopieën van de cache vast, en de logits van elke promptpositie.",
    "field.hfn": "Nieuwe tokens (max_new_tokens)",
    "field.hfn.help": "Tokens die na de prompt worden gegenereerd: de prompt is de context min deze. 0 vult de hele context in één keer, een bovengrens.",
    "field.hfq": "Backend van de gekwantiseerde cache",
    "field.hfq.help": "quanto: 2 of 4 bits; hqq: 1, 2, 3, 4 of 8 bits.",
    "field.hfb": "Bits (nbits)",
    "field.hfb.help": "Bits per opgeslagen waarde na kwantisatie.",
    "field.hfg": "Groepsgrootte (q_group_size)",
    "field.hfg.help": "Waarden die één schaal en één nulpunt delen.",
    "field.hfr": "Residulengte",
    "field.hfr.help": "Recente tokens die ongekwantiseerd blijven tot ze in het gekwantiseerde deel opgaan.",
    "field.gpu": "GPU (bruikbaar geheugen dat het framework ziet)",
    "field.gpu.help": "Het totaal dat torch.cuda.mem_get_info() meldt, niet het marketingcijfer.",
    "field.gpumem": "Of het geheugen van een eigen GPU",
    "field.gpumem.placeholder": "bijv. 24 GB of 22,5 GiB",
    "field.gpumem.help": "Vervangt de GPU hierboven: het totaal dat het framework ziet (GB = 10⁹ B, GiB = 2³⁰ B).",
    "field.gpucc": "Zijn CUDA compute capability",
    "field.gpucc.placeholder": "bijv. 8,9",
    "field.gpusm": "Zijn streaming multiprocessors",
    "field.gpusm.placeholder": "bijv. 142",
    "field.gpusm.help": "Voor een eigen GPU, multi_processor_count van torch (132 H100 SXM, 108 A100, 128 RTX 4090): de driver reserveert een stack voor elke actieve thread, en de sampler van vLLM houdt een kladrij per SM. Leeg: onbekend (de formule zegt wat wordt aangenomen).",
    "field.gpucc.help": "Voor een eigen GPU, zoals torch die toont (8.0 A100, 8.9 L40S, 9.0 H100, 12.0 RTX 5090): kernels waarvan het geheugen ervan afhangt, zoals de MXFP4-opvulling van vLLM-experts. Leeg: onbekend.",
    "field.count": "Aantal GPU’s",
    "field.count.help": "GPU’s in de set.",
    "field.headroom": "Speelruimte (%)",
    "field.headroom.help": "Geheugen dat voor de zekerheid vrij blijft.",
    "quantity.read-as": (what) => `gelezen als ${what}`,
    "quantity.unit.tokens": "tokens",
    "quantity.unit.params": "parameters",
    "quantity.unit.bytes": "B",
    // ---- eigen modelbestanden
    "files.files": "Modelbestanden",
    "files.folder": "Modelmap",
    "files.drop": "Sleep de bestanden of de map van het model hierheen: safetensors-shards met {0} (en de index), of één GGUF-bestand.",
    "files.choose-files": "Bestanden kiezen…",
    "files.choose-folder": "Een map kiezen…",
    "files.local": "Alleen de headers worden gelezen, hier in de pagina: er wordt niets geüpload.",
    "files.none-model": (names) => `geen van deze is een modelbestand (${names}): geef .safetensors-shards, hun index, config.json, model_index.json of een .gguf-bestand`,
    "files.none-given": "er is geen bestand opgegeven",
    "files.reading": (n) => n === 1 ? "De header van 1 bestand wordt gelezen…" : `De headers van ${n} bestanden worden gelezen…`,
    "files.as-is": (text) => text,
    "files.format": "Formaat",
    "files.version": (v) => ` (versie ${v})`,
    "files.tensors-row": "Tensoren",
    "files.tensors": (n, exact, bytes) => `${n} tensoren, ${exact} ≈ ${bytes}`,
    "files.by-dtype": "Per dtype",
    "files.blocks": (n) => `${n} blokken`,
    "files.tied": "gedeelde embeddings",
    "files.untied": "aparte output-head",
    "files.architecture": "Architectuur",
    "files.pipeline": (cls) => `diffusers-pipeline${cls ? ` (${cls})` : ""}`,
    "files.model": "Model",
    "files.config-found": "config.json gevonden: de schatting gebruikt die met de exacte checkpointbytes",
    "files.weights-only": (n) => `geen config.json: alleen de gewichten worden geschat (${n} parameters uit de vormen); sleep de config.json mee met de bestanden voor de KV-cache en de activaties`,
    "files.no-config": "geen config.json: sleep die samen met de bestanden hierheen om de KV-cache en de activaties te schatten",
    "files.read": "Uit de bestanden gelezen",
    "files.file-read": (name, read, size) => `${name}: ${read} gelezen van ${size}`,
    "files.skipped": (names) => `overgeslagen (geen modelbestanden): ${names}`,
    // ---- link, scenario-JSON, import
    "share.link": "Link naar deze schatting",
    "share.copy": "Link kopiëren",
    "share.copied": " Link gekopieerd.",
    "share.copy-this": (url) => ` Kopieer deze link: ${url}`,
    "share.accuracy": "Hoe dicht deze schattingen bij metingen liggen",
    "share.accuracy-what": "{0}: elk gemeten geval, de fout per metriek en de vuistregels ernaast (ACCURACY.md, in het Engels).",
    "share.scenario": "Scenario-JSON (exporteren, importeren, opdrachtregeltool)",
    "field.import": "Een scenario laden",
    "field.import.help": "Plak een scenario (CONTRACT v1) om het formulier ermee te vullen.",
    "import.load": "Laden",
    "import.loaded": "Geladen.",
    "import.loaded-without": (paths) => `Geladen; het formulier heeft geen invoer voor ${paths}, die zijn dus weggelaten.`,
    "import.not-json": (message) => `Geen geldige JSON: ${message}`,
    "import.not-object": "een scenario is een JSON-object",
    // ---- het rapport
    "unit.tokens": (n) => `${n} tokens`,
    "unit.size": (w, h2) => `${w} × ${h2} px`,
    "unit.px": (n) => `${n} px`,
    "unit.frames": (n) => `${n} frames`,
    "unit.samples": (n) => `batch ${n}`,
    "worked.title": "Eerst de ruwe gewichten",
    "worked.none": "Geen gewichtencomponent in dit rapport.",
    "worked.lower-bound": "Een ondergrens, geen GPU-aanbeveling: alles hieronder komt erbovenop.",
    "verdict.fits": "Past",
    "verdict.short": "Past niet",
    "verdict.per-gpu": (total, usable) => `per GPU ${total} van ${usable} bruikbaar`,
    "verdict.on": (gpu) => `op ${gpu}`,
    "verdict.free": (free, exact) => `${free} vrij (${exact})`,
    "verdict.short-by": (short, exact) => `${short} tekort (${exact})`,
    "verdict.warnings": "Waarschuwingen",
    "verdict.defaults": "Gebruikte standaardwaarden:",
    "gpu.custom": "eigen GPU",
    "bar.title": "Budget per GPU",
    "bar.label": (parts, usable, capacity) => `Budget per GPU: ${parts}; bruikbaar ${usable} van ${capacity}`,
    "bar.headroom-kept": "vrijgehouden speelruimte",
    "bar.usable": (b) => `bruikbaar ${b}`,
    "bar.capacity": (b) => `capaciteit ${b}`,
    "bar.headroom": "speelruimte",
    "table.title": "Elk cijfer en hoe het is berekend",
    "table.region": "Elk cijfer (scrollbare tabel)",
    "table.component": "Component",
    "table.exact": "Bytes (exact)",
    "table.formula": "Formule",
    "table.source": "Bron",
    "table.total": "Totaal per GPU",
    "table.sum": "som van de componenten hierboven",
    "table.usable": "Bruikbaar",
    "table.capacity": "Capaciteit (totaal van het framework)",
    "gpus.title": (mode) => `Per GPU (llama.cpp, splitmodus ${mode})`,
    "gpus.region": "Per GPU (scrollbare tabel)",
    "gpus.col.gpu": "GPU",
    "gpus.col.layers": "Lagen",
    "gpus.col.weights": "Gewichten",
    "gpus.col.kv": "KV-cache",
    "gpus.col.compute": "Rekenbuffer",
    "gpus.col.context": "CUDA-context",
    "gpus.col.total": "Totaal",
    "gpus.gpu": (n) => `GPU ${n}`,
    "gpus.fullest": (n) => `GPU ${n} (volste)`,
    "gpus.idle": "ongebruikt",
    "gpus.host": "Hostgeheugen",
    "gpus.host-layers": (last) => ` + lagen 0–${last}`,
    "gpus.fullest-decides": "De volste GPU bepaalt of het past; het budget hierboven is dat van die GPU.",
    "gpus.pipelined": (b) => `Gepipelinede micro-batches kunnen tot ${b} per GPU toevoegen (zie de waarschuwingen).`,
    "metrics.title": "Metrieken",
    "metrics.range": (r) => `bereik ${r}`,
    "metrics.engine": (engine) => `Hoe ${engine} de kaart besteedt`,
    "metrics.the-engine": "Hoe de engine de kaart besteedt",
    "metric.weights_bytes": "Gewichten in het GPU-geheugen",
    "metric.kv_cache_bytes": "Gereserveerde KV-cache",
    "metric.kv_bytes_per_token": "KV-bytes per token (alle lagen)",
    "metric.kv_capacity_tokens": "Tokens die de KV-pool bevat",
    "metric.max_concurrency": "Sequenties van deze context die passen",
    "metric.activation_bytes": "Piek van het tijdelijke werkgeheugen",
    "metric.non_torch_bytes": "Geheugen buiten de allocator van het framework",
    "metric.cuda_graph_bytes": "Pools van de CUDA graphs",
    "metric.peak_allocated_bytes": "Piek van de levende tensoren",
    "metric.peak_reserved_bytes": "Piek die de allocator vasthoudt",
    "metric.peak_device_bytes": "Piek die de driver ziet",
    "metric.max_context_tokens": "Langste context die past",
    "measure.title": "Meet het",
    "measure.copy": "Kopiëren",
    "measure.copied": "Gekopieerd",
    "measure.command": "Start de engine met deze instellingen; zijn opstartlog toont wat deze schatting voorspelt:",
    "measure.step": "Voer één representatieve stap uit met deze instellingen; die toont de pieken:",
    // ---- vergelijken met een meting
    "reconcile.title": "Vergelijken met een meting",
    "reconcile.log": "Een opstartlog van vLLM of llama.cpp, of de geheugenuitvoer van PyTorch",
    "reconcile.local": "Hier in de pagina gelezen: de cijfers die erin staan worden met deze schatting vergeleken.",
    "reconcile.run": "Vergelijken",
    "reconcile.no-scenario": "Geef eerst een geldig scenario op.",
    "reconcile.in-range": "(binnen het bereik)",
    "reconcile.out-of-range": "(buiten het bereik)",
    "reconcile.region": "Gemeten en geschat",
    "reconcile.col.metric": "Metriek",
    "reconcile.col.measured": "Gemeten",
    "reconcile.col.estimated": "Geschat",
    "reconcile.col.error": "Fout",
    "reconcile.col.meaning": "Wat het betekent",
    "reconcile.found": (n) => n === 1 ? "De 1 gelezen regel" : `De ${n} gelezen regels`,
    "reconcile.line": (n) => `regel ${n}:`,
    "reconcile.case": "Als nauwkeurigheidsgeval (één regel van een .jsonl-bestand)",
    // ---- de grafiek en het overzicht van wat past
    "chart.title": "Totaal per GPU tegen de context",
    "chart.title-seq": "Totaal per GPU tegen seq_len",
    "chart.none": "geen sweep",
    "chart.label": (n, points) => `Totaal per GPU tegen de context bij ${n} gelijktijdige verzoeken: ${points}`,
    "chart.label-seq": (n, points) => `Totaal per GPU tegen seq_len bij micro-batch ${n}: ${points}`,
    "chart.axis": (n) => `context (tokens per sequentie, logaritmische schaal), ${n} gelijktijdige verzoeken`,
    "chart.axis-seq": (n) => `seq_len (tokens per sample, logaritmische schaal), micro-batch ${n}`,
    "chart.point": (tokens, bytes, exact, fits) => `${tokens}: ${bytes} (${exact}) — ${fits ? "past" : "past niet"}`,
    "chart.answer": (n) => `langste die past: ${n}`,
    "chart.title-size": "Totaal per GPU tegen de beeldafmeting",
    "chart.label-size": (n, points) => `Totaal per GPU tegen de afmeting bij batch ${n}: ${points}`,
    "chart.axis-size": (n) => `hoogte (px, logaritmische schaal; de breedte houdt de beeldverhouding), batch ${n}`,
    "chart.marked-size": (x) => `De verticale lijn markeert de grootste afmeting die volgens het plan past: ${x}.`,
    "chart.title-frames": "Totaal per GPU tegen de frames",
    "chart.label-frames": (n, points) => `Totaal per GPU tegen de frames bij batch ${n}: ${points}`,
    "chart.axis-frames": (n) => `frames (logaritmische schaal), batch ${n}`,
    "chart.marked-frames": (x) => `De verticale lijn markeert het grootste aantal frames dat volgens het plan past: ${x}.`,
    "chart.title-mb": "Totaal per GPU tegen de micro-batch",
    "chart.label-mb": (n, points) => `Totaal per GPU tegen de micro-batch: ${points}`,
    "chart.axis-mb": () => "micro-batch (samples per stap per GPU, logaritmische schaal)",
    "chart.marked-mb": (x) => `De verticale lijn markeert de grootste micro-batch die volgens het plan past: ${x}.`,
    "chart.title-batch": "Totaal per GPU tegen de batch",
    "chart.label-batch": (n, points) => `Totaal per GPU tegen de batch: ${points}`,
    "chart.axis-batch": () => "batch (beelden per aanroep, logaritmische schaal)",
    "chart.marked-batch": (x) => `De verticale lijn markeert de grootste batch die volgens het plan past: ${x}.`,
    "chart.answer-most": (n) => `grootste die past: ${n}`,
    "chart.marked": (tokens) => `De verticale lijn markeert de langste context die volgens het plan past: ${tokens}.`,
    "chart.marked-seq": (tokens) => `De verticale lijn markeert de langste seq_len die volgens het plan past: ${tokens}.`,
    "chart.points": "Gevulde punten passen onder de lijn van het bruikbare geheugen; holle rode punten niet.",
    "map.context": "context",
    "map.concurrency": "gelijktijdigheid",
    "map.sequences": "gelijktijdige sequenties",
    "map.micro-batch": "micro-batch",
    "map.samples": "samples per GPU",
    "map.title": (row, col) => `Wat past: ${row} × ${col}`,
    "map.beyond": "buiten elk bestaand systeem",
    "map.region": "Wat past (scrollbare tabel)",
    "map.caption": (unit, row, what, usable) => `Totaal per GPU in ${unit} voor elke ${row} (rijen) en elk aantal ${what} (kolommen); ✓ past in ${usable} bruikbaar, ✗ past niet.`,
    "map.most": (what, row, list) => `Meeste ${what} die passen bij elke ${row}: ${list.join("; ")}.`,
    // ---- het plan
    "plan.title": "Plan",
    "plan.none": "geen plan",
    "plan.na": "niet beschikbaar voor dit model",
    "plan.max-context": "Langste context die past",
    "plan.model-limit": (n) => `(limiet van het model ${n})`,
    "plan.max-concurrency": "Meeste gelijktijdige sequenties bij deze context",
    "plan.smallest-tp": "Kleinste tensor parallel die past",
    "plan.no-tp": "geen, tot en met 8 GPU’s",
    "plan.max-layers": "Meeste lagen op de GPU(’s) (llama.cpp n_gpu_layers)",
    "plan.no-layers": "geen: zelfs 0 lagen passen niet",
    "plan.layers-of": (n, of) => `${n} van ${of}`,
    "plan.all-layers": "(elke laag en de output)",
    "plan.host": (b) => `hostgeheugen ${b}`,
    "plan.params": "Parameters (actief per token)",
    "plan.roles": "Grootste parametergroepen",
    "plan.apply": "Toepassen",
    "plan.apply-name": (change) => `Toepassen: ${change}`,
    "plan.use": "Gebruiken",
    "plan.use-name": (gpus) => `${gpus} gebruiken`,
    "plan.no-price": "geen prijs",
    "plan.price": (p) => `$ ${p}`,
    "plan.hints": "Wat het beeld zou veranderen",
    "plan.no-hints": "Geen hints voor dit scenario.",
    "plan.options": "GPU-opties die passen, goedkoopste eerst",
    "plan.options-region": "GPU-opties (scrollbaar)",
    "plan.col.gpu": "GPU",
    "plan.col.count": "Aantal",
    "plan.col.memory": "Geheugen per stuk",
    "plan.col.needed": "Nodig per stuk",
    "plan.col.price": "USD/u (hele set)",
    "plan.no-options": "Geen enkele GPU-set uit de catalogus past.",
    "plan.no-seq": "geen: zelfs de kortste past niet",
    "plan.no-gpus": (n) => `geen, tot en met ${n}`,
    "plan.replicates": "(deze sharding repliceert de statussen: meer GPU’s voegen replica’s toe, geen ruimte)",
    "plan.divides": "(de sharding verdeelt de statussen)",
    "plan.max-seq": "Langste seq_len die op de hele kaart past",
    "plan.max-seq-headroom": "Langste seq_len met vrijgehouden speelruimte",
    "plan.max-mb": "Grootste micro-batch bij deze seq_len",
    "plan.max-mb-sample": "Grootste micro-batch bij deze samplegrootte",
    "plan.replicated": "één (de scripts van diffusers houden het hele model op elke GPU)",
    "plan.no-mb": "geen",
    "plan.fewest": "Minste GPU’s voor dit model",
    "plan.max-size": "Grootste afmeting in deze beeldverhouding",
    "plan.no-size": "geen: zelfs de kleinste afmeting past niet",
    "plan.search-limit": "(de grens van de zoektocht)",
    "plan.max-frames": "Meeste frames bij deze afmeting",
    "plan.no-frames": "geen: zelfs één frame past niet",
    "plan.max-batch": "Grootste batch bij deze afmeting",
    "plan.one-gpu": "(deze runtime genereert op één GPU)",
    "plan.splits": "(Ulysses verdeelt de tokens, FSDP de gewichten)",
    // ---- de losse pagina (index.html, via page.js)
    "page.title": "VRAM Budget — hoeveel GPU-geheugen heeft deze configuratie nodig?",
    "page.tagline": "Een GPU-geheugencalculator die laat zien hoe hij rekent. Alles draait in deze pagina; er wordt niets verstuurd.",
    "page.about": "Over deze calculator",
    "page.intro.lead": "VRAM is een budget, geen modellabel.",
    "page.intro.1": "{0} GPU-geheugen wordt verbruikt door afzonderlijke categorieën: modelgewichten, de KV-cache bij inferentie, tijdelijke activaties, werkruimten van het framework, de allocatorcache en, tijdens training, gradiënten en optimizerstatus. Dat een model in één configuratie past, bewijst niet dat het past met een langere context, een grotere batch, een andere precisie of meer gelijktijdige verzoeken.",
    "page.intro.2": 'Plan dus vanuit het exacte model en de runtime-instellingen, niet vanuit "7B" of "70B". Begin met de ruwe gewichten (het hypothetische model uit het artikel, met 13 miljard parameters in een 16-bits formaat, is 26.000.000.000 bytes, ongeveer 24,2 GiB, een ondergrens) en tel elke categorie erbij op. Bij elk cijfer hieronder staat hoe het is berekend; meet de configuratie die u gaat draaien voordat u zich eraan vastlegt, en laat speelruimte over.',
    "page.walk.title": "Het artikel, stap voor stap",
    "page.walk.what": "Elke stap zet de calculator hieronder op het punt uit het artikel; verander vanaf daar wat u wilt.",
    "page.step.weights.link": "Eerst de ruwe gewichten",
    "page.step.weights": "{0}: 13.000.000.000 parameters × 2 bytes, een ondergrens.",
    "page.step.quantization.link": "De werkelijke overhead van kwantisering",
    "page.step.quantization": "{0}: 4-bits gewichten dragen nog steeds schalen, nulpunten en lagen die in 16 bits blijven.",
    "page.step.kv.link": "KV-cache en gelijktijdige verzoeken",
    "page.step.kv": "{0}: de gewichten laden, maar 8 sequenties van 32k tokens passen niet.",
    "page.step.working.link": "Werkgeheugen",
    "page.step.working": "{0}: activaties, werkruimten en de CUDA-context erbovenop.",
    "page.step.training.link": "Training heeft een andere geheugenvorm",
    "page.step.training": "{0}: gradiënten, optimizerstatus, opgeslagen activaties en fp32-masterkopieën.",
    "page.step.sharding.link": "DDP, FSDP of checkpointing",
    "page.step.sharding": "{0}: de status repliceren, sharden, of activaties opnieuw berekenen.",
    "page.step.gpus.link": "Meer GPU’s alleen waar de software het werk verdeelt",
    "page.step.gpus": "{0}: tensor parallel verdeelt elke laag over vier kaarten.",
    "page.step.measure.link": "Meten, en speelruimte laten",
    "page.step.measure": "{0}: plan met 20 % vrij en meet dan de configuratie die u gaat draaien.",
    "page.footer.units": "GiB = 2{0} bytes, GB = 10{1} bytes. De schatter is een C++-kern, naar WebAssembly gecompileerd; dezelfde scenario-JSON werkt met de opdrachtregeltool ({2}). De URL bevat de invoer, dus een link geeft dezelfde schatting.",
    "page.footer.accuracy.link": "Nauwkeurigheid tegenover metingen",
    "page.footer.accuracy": "{0} (in het Engels): elk gemeten geval waarop de schatter wordt beoordeeld, de fout per workload, engine en metriek, de dekking van de bereiken en de vuistregels, beoordeeld op dezelfde gevallen. Gegenereerd uit de gevallen door {1}."
  };

  // web/src/format.js
  var UNIT_SYSTEMS = {
    iec: { divisor: 2 ** 30, label: "GiB" },
    // GiB = 2^30 bytes
    si: { divisor: 1e9, label: "GB" }
    // GB = 10^9 bytes
  };
  var SIGNS = { "en-US": { group: ",", decimal: "." }, "nl-NL": { group: ".", decimal: "," } };
  function roundedDigits(n, max) {
    const text = String(Math.abs(n));
    if (text.includes("e")) return null;
    const dot = text.indexOf(".");
    let int = dot < 0 ? text : text.slice(0, dot);
    let frac = dot < 0 ? "" : text.slice(dot + 1);
    if (frac.length > max) {
      const up = frac.charCodeAt(max) >= 53;
      const kept = (int + frac.slice(0, max)).split("");
      for (let i = kept.length - 1; up && i >= 0; i--) {
        if (kept[i] !== "9") {
          kept[i] = String.fromCharCode(kept[i].charCodeAt(0) + 1);
          break;
        }
        kept[i] = "0";
        if (i === 0) kept.unshift("1");
      }
      int = kept.slice(0, kept.length - max).join("");
      frac = kept.slice(kept.length - max).join("");
    }
    return [int, frac];
  }
  function formatIn(signs, n, min, max) {
    if (!Number.isFinite(n)) return null;
    const digits = roundedDigits(n, max);
    if (!digits) return null;
    const [int, rawFrac] = digits;
    let frac = rawFrac.replace(/0+$/, "");
    if (frac.length < min) frac = frac.padEnd(min, "0");
    const grouped = int.replace(/\B(?=(\d{3})+$)/g, signs.group);
    const sign = n < 0 || Object.is(n, -0) ? "-" : "";
    return sign + grouped + (frac ? signs.decimal + frac : "");
  }
  var formatters = /* @__PURE__ */ new Map();
  function formatter(locale, min, max) {
    const key = `${locale}|${min}|${max}`;
    let f = formatters.get(key);
    if (!f) {
      const signs = SIGNS[locale];
      let intl = null;
      const viaIntl = (n) => {
        intl ??= new Intl.NumberFormat(locale, { minimumFractionDigits: min, maximumFractionDigits: max });
        return intl.format(n);
      };
      f = { format: signs ? (n) => formatIn(signs, n, min, max) ?? viaIntl(n) : viaIntl };
      formatters.set(key, f);
    }
    return f;
  }
  var fixedDigits = (n, digits, locale = "en-US") => formatter(locale, digits, digits).format(Number(n));
  function formatBytes(bytes, system = "iec", digits = 2, locale = "en-US") {
    const unit = UNIT_SYSTEMS[system];
    if (!unit) throw new Error(`unknown unit system: ${system}`);
    const value = fixedDigits(Number(bytes) / unit.divisor, digits, locale);
    return { value, label: unit.label, text: `${value} ${unit.label}` };
  }
  var groupDigits = (n, locale = "en-US", max = 2) => formatter(locale, 0, max).format(Number(n));
  var exactBytes = (n, locale = "en-US") => `${groupDigits(n, locale)} B`;

  // web/src/i18n/index.js
  var TABLES = { en: en_default, nl: nl_default };
  var LANGUAGES = Object.keys(TABLES);
  var LOCALES = { en: "en-US", nl: "nl-NL" };
  function languageOf(tag) {
    const m = /^([a-z]{2,3})(?:[-_]|$)/i.exec(String(tag ?? "").trim());
    const lang = m && m[1].toLowerCase();
    return lang && TABLES[lang] ? lang : null;
  }
  function browserLanguage(nav = globalThis.navigator) {
    const first = nav && (nav.languages && nav.languages[0] || nav.language) || "";
    return /^nl(?:[-_]|$)/i.test(first) ? "nl" : "en";
  }
  function currentLanguage({ chosen, attribute } = {}) {
    return languageOf(chosen) || languageOf(attribute) || browserLanguage();
  }
  function splitMarks(text) {
    return String(text).split(/\{(\d)\}/);
  }
  var translators = {};
  function translator(lang) {
    const l = languageOf(lang) || "en";
    if (translators[l]) return translators[l];
    const table = TABLES[l];
    const locale = LOCALES[l];
    const t = (key, ...args) => {
      const v = Object.prototype.hasOwnProperty.call(table, key) ? table[key] : void 0;
      if (v === void 0) return key;
      return typeof v === "function" ? v(...args) : v;
    };
    translators[l] = {
      lang: l,
      locale,
      t,
      has: (key) => Object.prototype.hasOwnProperty.call(table, key),
      number: (n, max = 2) => groupDigits(n, locale, max),
      fixed: (n, digits) => fixedDigits(n, digits, locale),
      bytes: (b, system = "iec", digits = 2) => formatBytes(b, system, digits, locale),
      exact: (b) => exactBytes(b, locale)
    };
    return translators[l];
  }
  var english = translator("en");

  // web/src/quantity.js
  var SUFFIXES = {
    tokens: { k: 1e3, m: 1e6, K: 2 ** 10, M: 2 ** 20 },
    count: { k: 1e3, K: 1e3 },
    params: { k: 1e3, K: 1e3, m: 1e6, M: 1e6, b: 1e9, B: 1e9, t: 1e12, T: 1e12 },
    bytes: {
      B: 1,
      KB: 1e3,
      MB: 1e6,
      GB: 1e9,
      TB: 1e12,
      KiB: 2 ** 10,
      MiB: 2 ** 20,
      GiB: 2 ** 30,
      TiB: 2 ** 40
    }
  };
  var FORM = /^([-+]?)([\d.,]*\d[\d.,]*|[.,]\d+)(e[-+]?\d+)?(\s*[A-Za-z]*)$/i;
  function mantissa(text, lang) {
    const commas = text.split(",").length - 1;
    const points = text.split(".").length - 1;
    let group = "";
    let decimal = "";
    if (lang === "nl") {
      if (commas && points) [group, decimal] = text.lastIndexOf(",") > text.lastIndexOf(".") ? [".", ","] : [",", "."];
      else if (commas) [group, decimal] = commas > 1 ? [",", ""] : ["", ","];
      else if (points) [group, decimal] = points > 1 ? [".", ""] : ["", "."];
    } else {
      if (commas) group = ",";
      if (points) decimal = ".";
    }
    const parts = decimal ? text.split(decimal) : [text];
    if (parts.length > 2) return null;
    let [int, frac] = parts;
    if (frac !== void 0 && !/^\d*$/.test(frac)) return null;
    if (group) {
      const g = group === "." ? "\\." : ",";
      if (!new RegExp(`^\\d{1,3}(?:${g}\\d{3})+$`).test(int)) return null;
      int = int.split(group).join("");
    } else if (!/^\d*$/.test(int)) return null;
    if (int === "" && !frac) return null;
    const twofold = lang === "nl" && decimal === "." && /^[1-9]\d{0,2}$/.test(int) && /^\d{3}$/.test(frac);
    return { plain: frac === void 0 ? int : `${int}.${frac}`, separators: !!group || decimal === "," || twofold };
  }
  function readForm(text, lang) {
    const t = String(text).trim().replace(/[_\u00a0\u202f](?=\d)/g, "");
    const m = FORM.exec(t);
    if (!m) return null;
    const num = mantissa(m[2], lang);
    if (!num) return null;
    return { sign: m[1], plain: num.plain, separators: num.separators, exp: m[3] || "", rest: m[4] };
  }
  function parseQuantity(text, kind = "count", lang = "en") {
    const tr = translator(lang);
    const t = String(text).trim();
    if (t === "") return { value: void 0, understood: "" };
    const form = readForm(t, tr.lang);
    if (!form) return { value: t, understood: "" };
    const table = SUFFIXES[kind] || {};
    const suffix = form.rest.trim();
    let mult = 1;
    if (suffix !== "") {
      mult = table[suffix] ?? (kind === "bytes" ? table[suffix.replace(/b$/, "B").replace(/^[kmgt]/, (c) => c.toUpperCase())] : void 0);
      if (mult === void 0) return { value: t, understood: "" };
    }
    let value = Number(`${form.sign}${form.plain}${form.exp}`) * mult;
    if (!Number.isFinite(value)) return { value: t, understood: "" };
    if (suffix === "" && form.exp === "" && !form.separators) return { value, understood: "" };
    const near = Math.round(value);
    if (Math.abs(value - near) < 1e-6 * Math.max(1, Math.abs(value))) value = near;
    let read = tr.number(value, 6);
    if (tr.has(`quantity.unit.${kind}`)) read += ` ${tr.t(`quantity.unit.${kind}`)}`;
    if (kind === "bytes") read += ` (${tr.bytes(value, "iec").text}, ${tr.bytes(value, "si").text})`;
    return { value, understood: tr.t("quantity.read-as", read) };
  }
  var numberOf = (text, kind, lang = "en") => parseQuantity(text, kind, lang).value;
  function canonicalQuantity(text, lang) {
    if (lang === "en") return text;
    const form = readForm(text, lang);
    if (!form) return text;
    return `${form.sign}${form.plain}${form.exp}${form.rest}`;
  }
  function displayQuantity(text, lang) {
    if (lang === "en") return text;
    const form = readForm(text, "en");
    if (!form || !form.plain.includes(".") && !form.separators) return text;
    return `${form.sign}${form.plain.replace(".", ",")}${form.exp}${form.rest}`;
  }

  // web/src/state.js
  var said = (key, ...args) => ({ message: english.t(key, ...args), i18n: [key, ...args] });
  var core = {
    defaults: { workload: "inference", engine: "", gpu: "", engines: {}, training: {}, generation: {} },
    /** Workloads the module reads (catalog().defaults.workloads). */
    workloads: ["inference"],
    /** Ids and aliases of the catalog's video pipelines (catalog().pipelines): a fine-tune of one reads frames. */
    videoPipelines: /* @__PURE__ */ new Set()
  };
  var workloadOf = (state) => state.wl || core.defaults.workload;
  var blockOf = (state) => BLOCK_OF[workloadOf(state)] || "inference";
  var trainsPipeline = (state) => workloadOf(state) === "training" && !!core.defaults.diffusion_training && state.fw === core.defaults.diffusion_training.framework;
  var usesPipeline = (state) => blockOf(state) === "generation" || trainsPipeline(state);
  var engineOf = (state) => state.engine || core.defaults.engine;
  function engineReads(engine, field) {
    const e = core.defaults.engines[engine];
    return !!e && e.fields.includes(field);
  }
  function blockFields(state) {
    const block = blockOf(state);
    const list = block === "training" ? TRAINING_FIELDS : block === "generation" ? GENERATION_FIELDS : [];
    if (trainsPipeline(state)) return list.filter((f) => core.defaults.diffusion_training.training_fields.includes(f.field));
    return list.filter((f) => !f.only || f.only.includes(workloadOf(state)));
  }
  function sampleFields(state) {
    if (!trainsPipeline(state)) return [];
    return GENERATION_FIELDS.filter((f) => core.defaults.diffusion_training.generation_fields.includes(f.field) && (f.field !== "frames" || core.videoPipelines.has(state.pipe)));
  }
  function liveKeys(state) {
    const keys = ["wl", "weights", "gpu", "gpumem", "count", "headroom"];
    if (state.gpumem !== "") keys.push("gpucc", "gpusm");
    if (usesPipeline(state)) keys.push("pipe");
    else if (state.src === "catalog") keys.push("src", "model");
    else if (state.src === "params") keys.push("src", "params");
    else keys.push("src", "config", "wbytes");
    if (blockOf(state) === "inference") {
      keys.push("engine", "context", "concurrency", "kv", "tp");
      if (engineReads(engineOf(state), "gpu_memory_utilization")) keys.push("gmu");
      if (engineReads(engineOf(state), "language_model_only")) keys.push("lmo");
      if (engineReads(engineOf(state), "n_gpu_layers")) keys.push(...LLAMA_KEYS);
      if (engineReads(engineOf(state), "cache_implementation")) {
        keys.push(...HF_KEYS);
        if (state.hfc === "quantized") keys.push(...HF_QUANT_KEYS);
      }
    } else {
      keys.push(...blockFields(state).map((f) => f.key), ...sampleFields(state).map((f) => f.key));
    }
    return keys;
  }
  var HASH_VERSION = "1";
  var CUSTOM_GPU = "custom GPU";
  function stateToHash(state, lang = "") {
    const q = new URLSearchParams();
    q.set("v", HASH_VERSION);
    const live = new Set(liveKeys(state));
    for (const [key, k] of Object.entries(KEYS)) {
      if (live.has(key) && state[key] !== "" && state[key] !== void 0) q.set(k.hash, state[key]);
    }
    if (q.get("src") === "files") q.set("src", "config");
    if (languageOf(lang)) q.set("lang", languageOf(lang));
    return q.toString();
  }
  function hashToState(hash) {
    const q = new URLSearchParams(String(hash).replace(/^#/, ""));
    if (!q.has("v")) return null;
    if (q.get("v") !== HASH_VERSION) {
      const { message, i18n } = said("error.link-version", q.get("v"), HASH_VERSION);
      return { error: message, i18n };
    }
    const state = {};
    for (const [key, k] of Object.entries(KEYS)) {
      if (q.has(k.hash)) state[key] = q.get(k.hash);
    }
    const lang = languageOf(q.get("lang"));
    return lang ? { state, lang } : { state };
  }
  function splitList(text) {
    const t = String(text).trim();
    if (t === "") return void 0;
    const parts = t.replace(/^\[|\]$/g, "").split(",").map((x) => x.trim());
    const nums = parts.map(Number);
    return parts.every((x) => x !== "") && nums.every(Number.isFinite) ? nums : t;
  }
  function nameList(text) {
    const t = String(text).trim();
    if (t === "") return void 0;
    if (!/[,\s]/.test(t)) return t;
    return t.split(/[,\s]+/).filter(Boolean);
  }
  function nameMap(text) {
    const t = String(text).trim();
    if (t === "") return void 0;
    const out = {};
    for (const part of t.split(/[,;]+/).map((x) => x.trim()).filter(Boolean)) {
      const m = /^([^=:\s]+)\s*[=:]\s*(\S*)$/.exec(part);
      if (!m) return t;
      out[m[1]] = m[2];
    }
    return out;
  }
  function fieldValue(f, text) {
    if (text === "" || text === void 0) return void 0;
    switch (f.kind) {
      case "choice":
      case "text":
        return text;
      case "bool":
        return text === "true" ? true : text === "false" ? false : text;
      case "list":
        return nameList(text);
      case "map":
        return nameMap(text);
      default:
        return numberOf(text, f.kind);
    }
  }
  function buildScenario(state, readConfig) {
    const wl = workloadOf(state);
    const sc = { v: 1 };
    let notes;
    if (state.wl !== "") sc.workload = state.wl;
    if (usesPipeline(state)) {
      const id = state.pipe.trim();
      if (id === "") return { pending: { path: "/model", ...said("pending.pipeline") } };
      sc.model = id;
    } else if (state.src === "catalog") {
      sc.model = state.model;
    } else if (state.src === "params") {
      sc.model = { params: numberOf(state.params, "params") ?? "" };
    } else if (state.src === "files" && state.config.trim() === "" && state.fileParams) {
      sc.model = { params: state.fileParams };
      const wbytes = numberOf(state.wbytes, "bytes");
      if (wbytes !== void 0) sc.model.weights_bytes = wbytes;
    } else {
      const text = state.config.trim();
      if (text === "" && state.src === "files") {
        return { pending: { path: "/model", ...said("pending.files") } };
      }
      if (text === "") return { pending: { path: "/model/config", ...said("pending.config") } };
      let config;
      try {
        config = JSON.parse(text);
      } catch (e) {
        const read = readConfig ? readConfig(text) : null;
        if (!read || !read.ok) return { error: { path: "/model/config", ...said("error.config-json", e.message) } };
        config = read.config;
        notes = read.notes;
      }
      sc.model = { config };
      const wbytes = numberOf(state.wbytes, "bytes");
      if (wbytes !== void 0) sc.model.weights_bytes = wbytes;
    }
    if (state.weights !== "") sc.weights = state.weights;
    sc.hardware = {};
    const mem = numberOf(state.gpumem, "bytes");
    if (mem !== void 0) {
      sc.hardware.gpu = { name: CUSTOM_GPU, memory_bytes: mem };
      const cc = numberOf(state.gpucc, "decimal");
      if (cc !== void 0) sc.hardware.gpu.compute_capability = cc;
      const sms = numberOf(state.gpusm, "count");
      if (sms !== void 0) sc.hardware.gpu.sm_count = sms;
    } else if (state.gpu !== "") sc.hardware.gpu = state.gpu;
    const count = numberOf(state.count, "count");
    if (count !== void 0) sc.hardware.count = count;
    const headroom = numberOf(state.headroom, "decimal");
    if (headroom !== void 0) sc.headroom = typeof headroom === "number" ? headroom / 100 : headroom;
    const block = BLOCK_OF[wl];
    if (block === "inference") sc.inference = inferenceBlock(state);
    else if (block) {
      const b = {};
      for (const f of blockFields(state)) {
        const v = fieldValue(f, state[f.key]);
        if (v !== void 0) b[f.field] = v;
      }
      sc[block] = b;
      const sample = {};
      for (const f of sampleFields(state)) {
        const v = fieldValue(f, state[f.key]);
        if (v !== void 0) sample[f.field] = v;
      }
      if (Object.keys(sample).length > 0) sc.generation = sample;
    }
    return notes && notes.length ? { scenario: sc, notes } : { scenario: sc };
  }
  function inferenceBlock(state) {
    const inf = {};
    if (state.engine !== "") inf.engine = state.engine;
    const fields = { context: ["context", "tokens"], concurrency: ["concurrency", "count"], tp: ["tensor_parallel", "count"] };
    for (const [key, [field, kind]] of Object.entries(fields)) {
      const v = numberOf(state[key], kind);
      if (v !== void 0) inf[field] = v;
    }
    if (state.kv !== "") inf.kv_cache_dtype = state.kv;
    if (engineReads(engineOf(state), "gpu_memory_utilization")) {
      const gmu = numberOf(state.gmu, "decimal");
      if (gmu !== void 0) inf.vllm = { gpu_memory_utilization: gmu };
    }
    if (engineReads(engineOf(state), "language_model_only") && state.lmo !== "") {
      inf.vllm = { ...inf.vllm, language_model_only: fieldValue({ kind: "bool" }, state.lmo) };
    }
    if (engineReads(engineOf(state), "n_gpu_layers")) {
      const lc = {};
      const ngl = numberOf(state.ngl, "count");
      if (ngl !== void 0) lc.n_gpu_layers = ngl;
      if (state.sm !== "") lc.split_mode = state.sm;
      const ts = splitList(state.ts);
      if (ts !== void 0) lc.tensor_split = ts;
      const mg = numberOf(state.mg, "count");
      if (mg !== void 0) lc.main_gpu = mg;
      if (Object.keys(lc).length) inf.llama_cpp = lc;
    }
    if (engineReads(engineOf(state), "cache_implementation")) {
      const hf = transformersBlock(state);
      if (Object.keys(hf).length) inf.transformers = hf;
    }
    return inf;
  }
  function transformersBlock(state) {
    const hf = {};
    if (state.hfc) hf.cache_implementation = state.hfc;
    if (state.hfa) hf.attn_implementation = state.hfa;
    if (String(state.hfv || "").trim() !== "") hf.version = String(state.hfv).trim();
    const newTokens = numberOf(state.hfn, "tokens");
    if (newTokens !== void 0) hf.max_new_tokens = newTokens;
    if (state.hfc !== "quantized") return hf;
    if (state.hfq) hf.backend = state.hfq;
    const numbers = { hfb: ["nbits", "count"], hfg: ["q_group_size", "count"], hfr: ["residual_length", "tokens"] };
    for (const [key, [field, kind]] of Object.entries(numbers)) {
      const v = numberOf(state[key], kind);
      if (v !== void 0) hf[field] = v;
    }
    return hf;
  }
  var PATCHABLE = {
    "/weights": "weights",
    "/inference/context": "context",
    "/inference/concurrency": "concurrency",
    "/inference/kv_cache_dtype": "kv",
    "/inference/tensor_parallel": "tp",
    "/inference/engine": "engine",
    "/inference/vllm/gpu_memory_utilization": "gmu",
    "/inference/vllm/language_model_only": "lmo",
    "/inference/llama_cpp/n_gpu_layers": "ngl",
    "/inference/transformers/cache_implementation": "hfc",
    "/inference/transformers/attn_implementation": "hfa",
    "/hardware/gpu": "gpu",
    "/hardware/count": "count",
    ...Object.fromEntries([...TRAINING_FIELDS, ...GENERATION_FIELDS].map((f) => [`/${f.block}/${f.field}`, f.key]))
  };
  function flattenPatch(patch, prefix = "", out = {}) {
    for (const [k, v] of Object.entries(patch)) {
      const path = `${prefix}/${k}`;
      if (v && typeof v === "object" && !Array.isArray(v)) flattenPatch(v, path, out);
      else out[path] = v;
    }
    return out;
  }
  function patchToState(patch, state = {}) {
    const flat = flattenPatch(patch || {});
    const changes = {};
    const weights = "/generation/component_weights/";
    for (const [path, value] of Object.entries(flat)) {
      if (path === "/inference/pipeline_parallel" && value === 1) continue;
      if (path.startsWith(weights) && typeof value === "string") {
        const map = nameMap(changes.cw !== void 0 ? changes.cw : state.cw || "");
        const merged = { ...map && typeof map === "object" ? map : {}, [path.slice(weights.length)]: value };
        changes.cw = Object.entries(merged).map(([k, v]) => `${k}=${v}`).join(", ");
        continue;
      }
      const key = PATCHABLE[path];
      if (!key || typeof value === "object") return null;
      changes[key] = String(value);
      if (key === "gpu") {
        changes.gpumem = "";
        changes.gpucc = "";
        changes.gpusm = "";
      }
    }
    return changes;
  }
  var ERROR_FIELDS = [
    ["/model/config", "config"],
    ["/model/weights_bytes", "wbytes"],
    ["/model/params", "params"],
    ["/model", "model-source"],
    ["/weights", "weights"],
    ["/inference/engine", "engine"],
    ["/inference/context", "context"],
    ["/inference/concurrency", "concurrency"],
    ["/inference/kv_cache_dtype", "kv"],
    ["/inference/tensor_parallel", "tp"],
    ["/inference/pipeline_parallel", "tp"],
    ["/inference/vllm/language_model_only", "lmo"],
    ["/inference/vllm", "gmu"],
    ["/inference/llama_cpp/n_gpu_layers", "ngl"],
    ["/inference/llama_cpp/split_mode", "sm"],
    ["/inference/llama_cpp/tensor_split", "ts"],
    ["/inference/llama_cpp/main_gpu", "mg"],
    ["/inference/transformers/cache_implementation", "hfc"],
    ["/inference/transformers/attn_implementation", "hfa"],
    ["/inference/transformers/version", "hfv"],
    ["/inference/transformers/max_new_tokens", "hfn"],
    ["/inference/transformers/backend", "hfq"],
    ["/inference/transformers/nbits", "hfb"],
    ["/inference/transformers/q_group_size", "hfg"],
    ["/inference/transformers/residual_length", "hfr"],
    ["/inference/transformers", "hfc"],
    ...[...TRAINING_FIELDS, ...GENERATION_FIELDS].map((f) => [`/${f.block}/${f.field}`, f.key]),
    ["/hardware/gpu/memory_bytes", "gpumem"],
    ["/hardware/gpu/compute_capability", "gpucc"],
    ["/hardware/gpu/sm_count", "gpusm"],
    ["/hardware/gpu", "gpu"],
    ["/hardware/count", "count"],
    ["/headroom", "headroom"],
    ["/workload", "wl"]
  ];
  function fieldText(f, v) {
    if (f.kind === "list" && Array.isArray(v)) return v.join(", ");
    if (f.kind === "map" && v && typeof v === "object") return Object.entries(v).map(([k, x]) => `${k}=${x}`).join(", ");
    return typeof v === "object" ? null : String(v);
  }
  function inferenceToState(inf, st, take) {
    take(inf, "/inference", [
      "engine",
      "context",
      "concurrency",
      "kv_cache_dtype",
      "tensor_parallel",
      "vllm",
      "llama_cpp",
      "transformers"
    ]);
    const simple = { engine: "engine", context: "context", concurrency: "concurrency", kv_cache_dtype: "kv", tensor_parallel: "tp" };
    for (const [field, key] of Object.entries(simple)) if (inf[field] !== void 0) st[key] = String(inf[field]);
    if (inf.vllm) {
      take(inf.vllm, "/inference/vllm", ["gpu_memory_utilization", "language_model_only"]);
      if (inf.vllm.gpu_memory_utilization !== void 0) st.gmu = String(inf.vllm.gpu_memory_utilization);
      if (inf.vllm.language_model_only !== void 0) st.lmo = String(inf.vllm.language_model_only);
    }
    const lc = inf.llama_cpp || {};
    take(lc, "/inference/llama_cpp", ["n_gpu_layers", "split_mode", "tensor_split", "main_gpu"]);
    if (lc.n_gpu_layers !== void 0) st.ngl = String(lc.n_gpu_layers);
    if (lc.split_mode !== void 0) st.sm = String(lc.split_mode);
    if (lc.tensor_split !== void 0) st.ts = Array.isArray(lc.tensor_split) ? lc.tensor_split.join(",") : String(lc.tensor_split);
    if (lc.main_gpu !== void 0) st.mg = String(lc.main_gpu);
    const hf = inf.transformers || {};
    const hfKeys = {
      cache_implementation: "hfc",
      attn_implementation: "hfa",
      version: "hfv",
      max_new_tokens: "hfn",
      backend: "hfq",
      nbits: "hfb",
      q_group_size: "hfg",
      residual_length: "hfr"
    };
    take(hf, "/inference/transformers", Object.keys(hfKeys));
    for (const [field, key] of Object.entries(hfKeys)) {
      if (hf[field] !== void 0 && typeof hf[field] !== "object") st[key] = String(hf[field]);
    }
  }
  function scenarioToState(sc, defaults) {
    if (!sc || typeof sc !== "object" || Array.isArray(sc)) {
      const { message, i18n } = said("import.not-object");
      return { error: message, i18n };
    }
    const st = { ...defaults, model: defaults.model };
    const ignored = [];
    const take = (obj, base, known) => {
      for (const k of Object.keys(obj || {})) if (!known.includes(k)) ignored.push(`${base}/${k}`);
    };
    take(sc, "", ["v", "workload", "model", "weights", "hardware", "headroom", "inference", "training", "generation"]);
    if (sc.workload !== void 0) st.wl = String(sc.workload);
    if (sc.training && typeof sc.training.framework === "string") st.fw = sc.training.framework;
    const m = sc.model;
    if (usesPipeline(st)) {
      st.pipe = typeof m === "string" ? m : "";
      if (typeof m !== "string" && m !== void 0) ignored.push("/model");
    } else if (typeof m === "string") {
      st.src = "catalog";
      st.model = m;
    } else if (m && typeof m === "object" && m.params !== void 0) {
      st.src = "params";
      st.params = String(m.params);
      take(m, "/model", ["params"]);
    } else if (m && typeof m === "object" && m.config !== void 0) {
      st.src = "config";
      st.config = JSON.stringify(m.config, null, 2);
      if (m.weights_bytes !== void 0) st.wbytes = String(m.weights_bytes);
      take(m, "/model", ["config", "weights_bytes"]);
    } else if (m !== void 0) ignored.push("/model");
    if (typeof sc.weights === "string") st.weights = sc.weights;
    else if (sc.weights !== void 0) ignored.push("/weights");
    const hw = sc.hardware || {};
    take(hw, "/hardware", ["gpu", "count"]);
    if (typeof hw.gpu === "string") st.gpu = hw.gpu;
    else if (hw.gpu && typeof hw.gpu === "object" && hw.gpu.memory_bytes !== void 0) {
      st.gpumem = String(hw.gpu.memory_bytes);
      if (typeof hw.gpu.compute_capability === "number") st.gpucc = String(hw.gpu.compute_capability);
      if (typeof hw.gpu.sm_count === "number") st.gpusm = String(hw.gpu.sm_count);
    }
    if (hw.count !== void 0) st.count = String(hw.count);
    if (typeof sc.headroom === "number") st.headroom = String(Number((sc.headroom * 100).toPrecision(12)));
    const block = blockOf(st);
    if (block === "inference") {
      inferenceToState(sc.inference || {}, st, take);
    } else {
      const b = sc[block] || {};
      const fields = blockFields(st);
      take(b, `/${block}`, fields.map((f) => f.field));
      for (const f of fields) {
        if (b[f.field] === void 0) continue;
        const text = fieldText(f, b[f.field]);
        if (text === null) ignored.push(`/${block}/${f.field}`);
        else st[f.key] = text;
      }
    }
    const sample = sampleFields(st);
    if (sample.length > 0) {
      const g = sc.generation || {};
      take(g, "/generation", sample.map((f) => f.field));
      for (const f of sample) {
        if (g[f.field] === void 0) continue;
        const text = fieldText(f, g[f.field]);
        if (text === null) ignored.push(`/generation/${f.field}`);
        else st[f.key] = text;
      }
    }
    for (const other of ["inference", "training", "generation"]) {
      if (other !== block && sc[other] !== void 0 && !(other === "generation" && sample.length > 0)) ignored.push(`/${other}`);
    }
    return { state: st, ignored };
  }

  // web/src/module.js
  var modulePromise = null;
  function loadModule() {
    if (!modulePromise) {
      if (typeof window.createVramBudget !== "function") {
        const e = new Error(english.t("error.no-module"));
        e.i18n = ["error.no-module"];
        return Promise.reject(e);
      }
      modulePromise = window.createVramBudget();
    }
    return modulePromise;
  }
  function call(module, fn, ...args) {
    try {
      return JSON.parse(module[fn](...args));
    } catch (e) {
      return { ok: false, error: { path: "", message: english.t("error.call", fn, e.message), i18n: ["error.call", fn, e.message] } };
    }
  }
  function pickerEntries(models) {
    return models.map((m) => {
      const size = `${(m.params / 1e9).toFixed(m.params < 1e10 ? 2 : 1)}B`;
      return {
        id: m.id,
        family: m.model_type || "",
        size,
        params: m.params,
        dtype: m.quantized ? m.dtype : "",
        hay: `${m.id} ${m.model_type || ""} ${size} ${m.dtype || ""}`.toLowerCase()
      };
    }).sort((a, b) => a.id.toLowerCase().localeCompare(b.id.toLowerCase()));
  }
  function matchModels(entries, query) {
    const words = String(query).toLowerCase().split(/[\s,]+/).filter(Boolean);
    if (!words.length) return entries;
    return entries.filter((e) => words.every((w) => {
      if (e.hay.includes(w)) return true;
      const m = /^(\d+(?:\.\d+)?)b$/.exec(w);
      return !!m && Math.abs(e.params / 1e9 - Number(m[1])) <= 0.15 * Number(m[1]);
    }));
  }

  // web/src/element.js
  var SCRIPT_URL = document.currentScript && document.currentScript.src || "";
  var sharedSheet = null;
  function styleSheet() {
    if (!sharedSheet) {
      sharedSheet = new CSSStyleSheet();
      sharedSheet.replaceSync(styles_default);
    }
    return sharedSheet;
  }
  var VramBudgetElement = class extends HTMLElement {
    static define(tag = "vram-budget", registry = customElements) {
      registry.define(tag, this);
      return this;
    }
    static get observedAttributes() {
      return [...Object.keys(ATTRIBUTES), "no-url-state", "page-url", "lang"];
    }
    constructor() {
      super();
      this._root = this.attachShadow({ mode: "open" });
      this._root.adoptedStyleSheets = [styleSheet()];
      this._state = { ...DEFAULT_STATE };
      this._chosenLang = "";
      this._tr = translator(currentLanguage());
      this._module = null;
      this._catalog = null;
      this._modelEntries = null;
      this._fields = {};
      this._errors = {};
      this._understood = {};
      this._timer = 0;
      this._seq = 0;
      this._uid = 0;
      this.scenario = null;
      this.report = null;
      this.plan = null;
      this.sweep = null;
      this._onHashChange = () => this._readHash(true);
    }
    /** An id unique inside this element's shadow root. */
    _newId(name) {
      return `vb-${name}-${++this._uid}`;
    }
    // ---- language -------------------------------------------------------------
    /** The page's language (en | nl); setting it is what the language switch does. */
    get language() {
      return this._tr.lang;
    }
    set language(value) {
      this._chooseLanguage(languageOf(value) || "");
    }
    /** A string of the current language's table. */
    _t(key, ...args) {
      return this._tr.t(key, ...args);
    }
    /** A table string whose {0}, {1} ... marks stand for the nodes given. */
    _marked(key, ...nodes) {
      return splitMarks(this._t(key)).map((part, i) => i % 2 ? nodes[Number(part)] : part).filter((x) => x !== "");
    }
    /** Figures formatted in the current locale. */
    _num(n) {
      return this._tr.number(n);
    }
    _bytes(b, system, digits) {
      return this._tr.bytes(b, system, digits);
    }
    _exact(b) {
      return this._tr.exact(b);
    }
    /** An error's text: the page's own in the current language (its i18n key), the module's as given. */
    _message(error) {
      return error.i18n ? this._t(...error.i18n) : error.message;
    }
    /** Sets a status line from a table string, and again after a change of language. */
    _say(el, key, ...args) {
      el._said = key ? [key, ...args] : null;
      el.textContent = key ? this._t(key, ...args) : "";
    }
    _chooseLanguage(lang) {
      this._chosenLang = lang;
      if (!this._applyLanguage() && this._permalink) this._writeLink();
    }
    /** Draws everything again in the language now current, keeping the inputs, what is
     *  open and the focus; tells the host page (language-change). */
    _applyLanguage() {
      const lang = currentLanguage({ chosen: this._chosenLang, attribute: this.getAttribute("lang") });
      if (lang === this._tr.lang && this._drawnLang === lang) return false;
      this._tr = translator(lang);
      let redrawn = false;
      if (this._drawnLang !== void 0) {
        if (this._fields.engine) {
          this._redrawForm();
          redrawn = true;
        } else if (!this._module) this._showLoading();
      }
      this._drawnLang = lang;
      this.dispatchEvent(new CustomEvent("language-change", { bubbles: true, composed: true, detail: { lang } }));
      return redrawn;
    }
    _showLoading() {
      replace(this._root, h("p", { class: "vb-loading", role: "status", lang: this._tr.lang }, this._t("status.loading")));
    }
    /** The form and the results built again (new language), with the reader's place kept:
     *  the inputs (state), the texts waiting for Load or Compare, what is open, the focus. */
    _redrawForm() {
      const active = this._root.activeElement;
      const focus = active ? {
        place: this._placeOf(active),
        value: active.value,
        start: active.selectionStart,
        end: active.selectionEnd
      } : null;
      const open = [...this._root.querySelectorAll("details")].filter((d) => d.open).map((d) => this._placeOf(d));
      const kept = { import: this._fields.import.value, log: this._reconcileLog.value };
      const said2 = [this._copyStatus, this._importStatus].map((el) => el._said);
      this._fields = {};
      this._errors = {};
      this._understood = {};
      this._buildForm();
      this._fields.import.value = kept.import;
      this._reconcileLog.value = kept.log;
      [this._copyStatus, this._importStatus].forEach((el, i) => {
        if (said2[i]) this._say(el, ...said2[i]);
      });
      if (this._inspection && this._inspection.ok) this._renderInspection(this._inspection, this._inspectionSkipped || []);
      if (this._filesErrorSaid) this._showFilesError(...this._filesErrorSaid);
      this._syncForm();
      for (const place of open) {
        const d = this._findPlace(place);
        if (d && d.tagName === "DETAILS") d.open = true;
      }
      this._update({ quiet: true });
      for (const place of open) {
        const d = this._findPlace(place);
        if (d && d.tagName === "DETAILS") d.open = true;
      }
      const target = focus && this._findPlace(focus.place);
      if (!target) return;
      for (let d = target.closest("details"); d; d = d.parentElement && d.parentElement.closest("details")) d.open = true;
      if (typeof focus.value === "string" && target.tagName !== "SELECT" && "value" in target && !numberKind(target.name) && target.value !== focus.value) {
        target.value = focus.value;
      }
      target.focus({ preventScroll: true });
      if (typeof focus.start === "number" && target.setSelectionRange) {
        try {
          target.setSelectionRange(focus.start, focus.end);
        } catch (e) {
        }
      }
    }
    /** Where an element is, so that its counterpart is found once everything is drawn again:
     *  its Apply/Use action, or its place under the nearest element with a test id. */
    _placeOf(el) {
      if (el.dataset && el.dataset.action) return { action: el.dataset.action };
      const box = el.closest("[data-testid]");
      const same = [...(box || this._root).querySelectorAll(el.tagName)];
      return { testid: box ? box.dataset.testid : "", self: box === el, tag: el.tagName, index: same.indexOf(el) };
    }
    _findPlace(p) {
      if (p.action) return [...this._root.querySelectorAll("[data-action]")].find((b) => b.dataset.action === p.action) || null;
      const box = p.testid ? [...this._root.querySelectorAll("[data-testid]")].find((e) => e.dataset.testid === p.testid) : this._root;
      if (!box) return null;
      return p.self ? box : box.querySelectorAll(p.tag)[p.index] || null;
    }
    connectedCallback() {
      if (this._started) return;
      this._started = true;
      if (!this._attributesRead) {
        this._attributesRead = true;
        for (const [attr, key] of Object.entries(ATTRIBUTES)) {
          if (this.hasAttribute(attr)) this._state[key] = this.getAttribute(attr);
        }
        if (this.getAttribute("model") && !this.hasAttribute("source")) this._state.src = "catalog";
        if (this.getAttribute("config") && !this.hasAttribute("source")) this._state.src = "config";
        const parsed = this._urlState ? hashToState(location.hash) : null;
        if (parsed && parsed.lang) this._chosenLang = parsed.lang;
      }
      this._applyLanguage();
      if (!this._module) this._showLoading();
      loadModule().then(
        (module) => {
          if (!this._module) this._start(module);
          else this._attach();
        },
        (e) => replace(this._root, h("p", { class: "vb-error", role: "alert", lang: this._tr.lang }, this._message(e)))
      );
    }
    disconnectedCallback() {
      window.removeEventListener("hashchange", this._onHashChange);
      clearTimeout(this._timer);
      this._started = false;
    }
    attributeChangedCallback(name, old, value) {
      if (old === value) return;
      if (name === "lang") {
        if (this._started || this._module) this._chooseLanguage("");
        return;
      }
      if (name === "no-url-state" || name === "page-url") {
        if (this._module) {
          this._attach();
          this._update();
        }
        return;
      }
      const key = ATTRIBUTES[name];
      const changes = { [key]: value === null ? DEFAULT_STATE[key] : value };
      if (name === "model" && value !== null && !this.hasAttribute("source")) changes.src = "catalog";
      if (!this._module) {
        Object.assign(this._state, changes);
        return;
      }
      this._setState(changes);
    }
    get _urlState() {
      return !this.hasAttribute("no-url-state");
    }
    _start(module) {
      this._module = module;
      this._catalog = call(module, "catalog", { models: false });
      this._modelEntries = null;
      if (!this._catalog.ok) {
        replace(this._root, h("p", { class: "vb-error", role: "alert", lang: this._tr.lang }, `catalog(): ${this._message(this._catalog.error)}`));
        return;
      }
      core.defaults = { ...core.defaults, ...this._catalog.defaults };
      core.workloads = core.defaults.workloads && core.defaults.workloads.length ? core.defaults.workloads : [core.defaults.workload];
      core.videoPipelines = new Set((this._catalog.pipelines || []).filter((p) => p.modality === "video").flatMap((p) => [p.id, ...p.aliases || []]));
      if (!this._state.model) this._state.model = core.defaults.model || "";
      this._buildForm();
      if (this._urlState) this._readHash(false);
      this._attach();
      this._syncForm();
      this._update({ defer: true });
      const idle = window.requestIdleCallback || ((f) => setTimeout(f, 250));
      idle(() => {
        if (this._module === module) void this._entries;
      }, { timeout: 2e3 });
    }
    /** The type-ahead's entries: the catalog's models, asked for once, on first use. */
    get _entries() {
      if (!this._modelEntries) {
        const r = call(this._module, "models");
        this._modelEntries = r.ok ? pickerEntries(r.models) : [];
      }
      return this._modelEntries;
    }
    /** Listens to the page's fragment only where URL state is on. */
    _attach() {
      window.removeEventListener("hashchange", this._onHashChange);
      if (this._urlState && this._started) window.addEventListener("hashchange", this._onHashChange);
    }
    _readHash(rerun) {
      const parsed = hashToState(location.hash);
      this._hashError = null;
      if (!parsed) return;
      if (parsed.error) {
        this._hashError = parsed;
      } else {
        this._state = { ...DEFAULT_STATE, model: this._state.model, ...parsed.state };
        if (parsed.lang && parsed.lang !== this._chosenLang) {
          this._chosenLang = parsed.lang;
          if (rerun) this._applyLanguage();
        }
      }
      if (rerun) {
        this._syncForm();
        this._update();
      }
    }
    /** Merge state changes, reflect them in the form, recompute. */
    _setState(changes) {
      this._hashError = null;
      Object.assign(this._state, changes);
      this._syncForm();
      this._update();
    }
    // ---- form ---------------------------------------------------------------
    _onInput(key, value, now) {
      this._hashError = null;
      this._state[key] = this._keptText(key, value);
      if (this._understood[key]) this._showUnderstood(key);
      if (key === "src" || key === "engine" || key === "wl") this._syncForm();
      clearTimeout(this._timer);
      if (now) this._update();
      else this._timer = setTimeout(() => this._update(), 150);
    }
    /** Where "Link to this estimate" points: this page's fragment, or (without
     *  URL state) the standalone page, so the host's URL is never rewritten. */
    _linkTarget(hash) {
      if (this._urlState) return { href: `#${hash}`, external: false };
      const base = this.getAttribute("page-url") || this._besideScript("index.html");
      return { href: `${base.replace(/#.*$/, "")}#${hash}`, external: true };
    }
    /** A file of the standalone bundle (index.html, accuracy.html), found
     *  beside this script or, when given, beside the page-url attribute. */
    _besideScript(file) {
      try {
        return new URL(file, this.getAttribute("page-url") || SCRIPT_URL || location.href).href;
      } catch (e) {
        return file;
      }
    }
    // ---- compute and render -------------------------------------------------
    /** The fragment (with URL state) and "Link to this estimate": the inputs and a chosen language. */
    _writeLink() {
      const hash = stateToHash(this._state, this._chosenLang);
      if (this._urlState && location.hash !== `#${hash}`) history.replaceState(null, "", `#${hash}`);
      const link = this._linkTarget(hash);
      this._permalink.href = link.href;
      if (link.external) {
        this._permalink.target = "_blank";
        this._permalink.rel = "noopener";
      } else {
        this._permalink.removeAttribute("target");
        this._permalink.removeAttribute("rel");
      }
      this._accuracyLink.href = this._besideScript("accuracy.html");
      if (link.external) this._accuracyLink.target = "_blank";
    }
    /** Builds the scenario, asks the module, draws the answer. With defer (the
     *  first estimate), the plan and the chart are computed after the first paint. */
    _update(options = {}) {
      clearTimeout(this._timer);
      const built = buildScenario(this._state, (text) => call(this._module, "readConfig", text));
      this.scenario = built.scenario || null;
      this._writeLink();
      this._scenarioPre.textContent = built.scenario ? JSON.stringify(built.scenario, null, 2) : "";
      let report;
      if (built.pending) report = { ok: false, pending: true, error: built.pending };
      else if (built.error) report = { ok: false, error: built.error };
      else report = call(this._module, "estimate", JSON.stringify(built.scenario));
      if (report.ok && built.notes) report = { ...report, warnings: [...built.notes, ...report.warnings || []] };
      this.report = report;
      this._showErrors(report);
      const seq = ++this._seq;
      if (report.ok) {
        const text = JSON.stringify(built.scenario);
        const planned = () => {
          this.plan = call(this._module, "plan", text);
          this.sweep = call(this._module, "sweep", text);
          this._renderChart(this.sweep, report, this.plan);
          this._renderPlan(this.plan);
          this._plannedText = text;
          this._renderGrid();
        };
        this.plan = null;
        this.sweep = null;
        this._renderReport(report);
        this._renderedWorkload = workloadOf(this._state);
        if (options.defer) {
          replace(
            this._out.plan,
            this._heading("plan", this._t("plan.title")),
            h("p", { class: "vb-loading", role: "status" }, this._t("status.planning"))
          );
        }
        this._setBusy(true);
        this._afterPaint(seq, () => {
          planned();
          this._setBusy(false);
          this._restoreFocus();
        });
      } else {
        this.plan = null;
        this.sweep = null;
        this._setBusy(false);
        this._restoreFocus();
      }
      if (!options.quiet) this.dispatchEvent(new CustomEvent("estimate-change", { bubbles: true, composed: true, detail: report }));
    }
    /** Runs `f` once after the next paint, unless a newer update (`seq`) came first. */
    _afterPaint(seq, f) {
      let done = false;
      const once = () => {
        if (done || seq !== this._seq) return;
        done = true;
        f();
      };
      requestAnimationFrame(() => setTimeout(once, 0));
      setTimeout(once, 200);
    }
    /** Marks the plan and the chart as being recomputed (aria-busy). */
    _setBusy(busy) {
      for (const el of [this._out.plan, this._out.chart]) {
        if (!el) continue;
        if (busy) el.setAttribute("aria-busy", "true");
        else el.removeAttribute("aria-busy");
      }
    }
    /** Copies the link (absolute) to the clipboard, or shows it to copy by hand. */
    _copyLink() {
      const url = new URL(this._permalink.getAttribute("href"), location.href).href;
      const clip = navigator.clipboard;
      const manual = () => this._say(this._copyStatus, "share.copy-this", url);
      if (clip && clip.writeText) clip.writeText(url).then(() => this._say(this._copyStatus, "share.copied"), manual);
      else manual();
    }
    /** Fills the form from a pasted scenario; says which fields it has no input for. */
    _importScenario() {
      const text = this._fields.import.value.trim();
      let sc;
      try {
        sc = JSON.parse(text);
      } catch (e) {
        this._say(this._importStatus, "import.not-json", e.message);
        return;
      }
      const got = scenarioToState(sc, { ...DEFAULT_STATE, model: this._state.model });
      if (got.error) {
        this._say(this._importStatus, ...got.i18n);
        return;
      }
      if (got.ignored.length) this._say(this._importStatus, "import.loaded-without", got.ignored.join(", "));
      else this._say(this._importStatus, "import.loaded");
      this._hashError = null;
      this._state = got.state;
      this._syncForm();
      this._update();
    }
    /** After Apply or Use: focus the same control in the new figures, else the plan's heading. */
    _restoreFocus() {
      const action = this._focusAction;
      if (!action) return;
      this._focusAction = null;
      const same = [...this._root.querySelectorAll("[data-action]")].find((b) => b.dataset.action === action);
      const target = same || this._root.getElementById(this._headingId("plan")) || this._out.verdict;
      if (target && !same) target.setAttribute("tabindex", "-1");
      if (target) target.focus();
    }
    _showErrors(report) {
      const error = report.ok ? null : report.error;
      for (const [key2, el] of Object.entries(this._errors)) {
        el.hidden = true;
        el.textContent = "";
        this._fields[key2]?.removeAttribute("aria-invalid");
      }
      this._generalError.hidden = true;
      this._banner.hidden = true;
      this._notice.hidden = true;
      this._results.classList.remove("vb-stale");
      if (this._hashError) {
        this._generalError.hidden = false;
        this._generalError.textContent = this._t(...this._hashError.i18n);
      }
      const sameWorkload = this._renderedWorkload === workloadOf(this._state);
      this._figures.hidden = !report.ok && !(sameWorkload && !report.pending && error && error.path !== "/workload");
      if (report.ok) return;
      if (report.pending) {
        const text = this._message(error);
        replace(this._notice, h("p", { class: "vb-pending" }, text[0].toUpperCase() + text.slice(1), "."));
        this._notice.hidden = false;
        return;
      }
      const path = error.path || "";
      if (path === "/workload" && core.workloads.includes(workloadOf(this._state))) {
        replace(
          this._notice,
          h("h2", {}, this._t("notice.not-estimated", this._workloadName(workloadOf(this._state)))),
          h("p", { "data-testid": "workload-message" }, error.message),
          h("p", { class: "vb-help" }, this._marked("notice.keep-scenario", h("code", {}, "vram-budget estimate"))),
          h("pre", { class: "vb-code" }, this.scenario ? JSON.stringify(this.scenario, null, 2) : "")
        );
        this._notice.hidden = false;
        return;
      }
      const match = ERROR_FIELDS.find(([prefix]) => path === prefix || path.startsWith(`${prefix}/`));
      let key = match ? match[1] : null;
      if (key === "model-source" && this._state.src === "catalog") key = "model";
      if (key === "model-source" && usesPipeline(this._state)) key = "pipe";
      if (key === "gpu" && this._state.gpumem !== "") key = "gpumem";
      const slot = key && this._errors[key] || this._generalError;
      const message = this._message(error);
      replace(slot, h("code", { class: "vb-path" }, path || "/"), " ", message);
      slot.hidden = false;
      this._fields[key]?.setAttribute("aria-invalid", "true");
      replace(
        this._banner,
        h("strong", {}, this._t("error.input"), " "),
        h("code", { class: "vb-path" }, path || "/"),
        ": ",
        message,
        this._figures.hidden ? "" : ` — ${this._t("error.last-valid")}`
      );
      this._banner.hidden = false;
      if (!this._figures.hidden) this._results.classList.add("vb-stale");
    }
    _renderReport(report) {
      this._figures.hidden = false;
      this._renderWorked(report);
      this._renderVerdict(report);
      this._renderBar(report);
      this._renderTable(report);
      this._renderGpus(report);
      this._renderMetrics(report);
      this._renderReconcile();
    }
    _heading(key, text) {
      return h("h2", { id: this._headingId(key) }, text);
    }
    /** A workload's name in the current language (the module's own name for one the tables lack). */
    _workloadName(w) {
      return this._tr.has(`workload.${w}`) ? this._t(`workload.${w}`) : w;
    }
  };

  // web/src/form.js
  function shownLater(box, build) {
    box.hidden = true;
    box._build = build;
    return box;
  }
  function show(box, shown) {
    box.hidden = !shown;
    if (shown && box._build) {
      append(box, box._build());
      box._build = null;
    }
  }
  var FormMethods = class {
    _field(key, labelText, control, help, kind) {
      const id = this._newId(key);
      control.id = id;
      const err = h("p", { class: "vb-field-error", id: `${id}-error`, role: "alert", hidden: true });
      const described = [`${id}-error`];
      const helpEl = help ? h("p", { class: "vb-help", id: `${id}-help` }, help) : null;
      if (help) described.push(`${id}-help`);
      let understood = null;
      if (kind && SUFFIXES[kind]) {
        understood = h("p", { class: "vb-understood", id: `${id}-read`, "aria-live": "polite", "data-understood": key });
        described.push(`${id}-read`);
        this._understood[key] = { el: understood, kind };
      }
      control.setAttribute("aria-describedby", described.join(" "));
      this._fields[key] = control;
      this._errors[key] = err;
      return h(
        "div",
        { class: "vb-field", "data-field": key },
        h("label", { for: id }, labelText),
        control,
        understood,
        helpEl,
        err
      );
    }
    _select(key, options) {
      const sel = h(
        "select",
        { name: key, "data-testid": key },
        options.map(([value, text]) => h("option", { value }, text))
      );
      sel.addEventListener("change", () => this._onInput(key, sel.value, true));
      return sel;
    }
    _text(key, attrs) {
      const input = h("input", { type: "text", name: key, autocomplete: "off", spellcheck: "false", "data-testid": key, ...attrs });
      input.addEventListener("input", () => this._onInput(key, input.value, false));
      input.addEventListener("change", () => this._onInput(key, input.value, true));
      return input;
    }
    /** What the state keeps of a typed text: a number the English way (decimal point,
     *  no grouping), whatever the page's language; names and lists as typed. */
    _keptText(key, text) {
      const kind = numberKind(key);
      return kind ? canonicalQuantity(text, this._tr.lang) : text;
    }
    /** What an input shows of the state's text: a number in the page's notation. */
    _shownText(key, text) {
      const kind = numberKind(key);
      return kind ? displayQuantity(text, this._tr.lang) : text;
    }
    /** An input of the training or generation block, from its table entry. */
    _blockField(f) {
      let control;
      if (f.kind === "choice" && Array.isArray(core.defaults[f.block] && core.defaults[f.block][f.field])) {
        control = this._select(f.key, [["", this._t("option.default")], ...core.defaults[f.block][f.field].map((n) => [n, n])]);
      } else if (f.kind === "bool") {
        control = this._select(f.key, [["", this._t("option.default")], ["true", this._t("option.on")], ["false", this._t("option.off")]]);
      } else {
        const numeric = SUFFIXES[f.kind] ? { inputmode: f.kind === "count" ? "numeric" : "text" } : {};
        const worded = `field.${f.key}.placeholder`;
        control = this._text(f.key, { placeholder: this._tr.has(worded) ? this._t(worded) : f.placeholder || "", ...numeric });
      }
      return this._field(f.key, this._t(`field.${f.key}`), control, this._t(`field.${f.key}.help`), f.kind);
    }
    /** The language switch: a labelled select, each language named in itself. */
    _languageField() {
      const id = this._newId("lang");
      const select = h(
        "select",
        { id, name: "lang", "data-testid": "language" },
        LANGUAGES.map((l) => h("option", { value: l, lang: l }, this._t(`language.${l}`)))
      );
      select.value = this._tr.lang;
      select.addEventListener("change", () => this._chooseLanguage(select.value));
      return h(
        "div",
        { class: "vb-language" },
        h("label", { for: id }, this._t("language.label")),
        select
      );
    }
    /** The catalog model type-ahead: a combobox over ids, families and sizes. */
    _modelPicker() {
      const listId = this._newId("models");
      const input = h("input", {
        type: "text",
        name: "model",
        role: "combobox",
        "aria-autocomplete": "list",
        "aria-expanded": "false",
        "aria-controls": listId,
        autocomplete: "off",
        spellcheck: "false",
        "data-testid": "model",
        placeholder: this._t("model.search")
      });
      const list = h("ul", {
        class: "vb-listbox",
        role: "listbox",
        id: listId,
        hidden: true,
        "aria-label": this._t("model.options"),
        "data-testid": "model-options"
      });
      let matches = [];
      let active = -1;
      const show2 = (query) => {
        matches = matchModels(this._entries, query).slice(0, 60);
        active = matches.length ? 0 : -1;
        replace(list, matches.length ? matches.map((e, i) => h("li", {
          role: "option",
          id: `${listId}-${i}`,
          "data-value": e.id,
          "aria-selected": i === active ? "true" : "false",
          onmousedown: (ev) => {
            ev.preventDefault();
            pick(e.id);
          }
        }, e.id, h("span", {}, [e.family, this._modelSize(e.params), e.dtype].filter(Boolean).join(" · ")))) : h("li", { class: "vb-empty", role: "option", "aria-disabled": "true", "aria-selected": "false" }, this._t("model.none")));
        list.hidden = false;
        input.setAttribute("aria-expanded", "true");
        mark();
      };
      const close = () => {
        list.hidden = true;
        input.setAttribute("aria-expanded", "false");
        input.removeAttribute("aria-activedescendant");
      };
      const mark = () => {
        [...list.children].forEach((li, i) => li.setAttribute("aria-selected", i === active ? "true" : "false"));
        if (active >= 0) {
          input.setAttribute("aria-activedescendant", `${listId}-${active}`);
          list.children[active].scrollIntoView({ block: "nearest" });
        } else input.removeAttribute("aria-activedescendant");
      };
      const pick = (id) => {
        input.value = id;
        close();
        this._onInput("model", id, true);
      };
      input.addEventListener("focus", () => input.select());
      input.addEventListener("input", () => show2(input.value));
      input.addEventListener("keydown", (ev) => {
        if (ev.key === "ArrowDown" || ev.key === "ArrowUp") {
          ev.preventDefault();
          if (list.hidden) {
            show2(input.value === this._state.model ? "" : input.value);
            return;
          }
          if (!matches.length) return;
          active = (active + (ev.key === "ArrowDown" ? 1 : matches.length - 1)) % matches.length;
          mark();
        } else if (ev.key === "Enter") {
          ev.preventDefault();
          if (!list.hidden && active >= 0) pick(matches[active].id);
          else commit();
        } else if (ev.key === "Escape") {
          if (!list.hidden) {
            ev.preventDefault();
            close();
            input.value = this._state.model;
          }
        }
      });
      const commit = () => {
        close();
        const text = input.value.trim();
        if (text === "") {
          input.value = this._state.model;
          return;
        }
        const exact = this._entries.find((e) => e.id.toLowerCase() === text.toLowerCase());
        const id = exact ? exact.id : text;
        input.value = id;
        if (id !== this._state.model) this._onInput("model", id, true);
      };
      input.addEventListener("blur", commit);
      const field = this._field("model", this._t("field.model"), input, this._t("field.model.help", this._num(this._catalog.model_count)));
      field.insertBefore(list, input.nextSibling);
      return field;
    }
    /** A catalog model's size: "8.03B" (nl "8,03B"), one decimal from 10B. */
    _modelSize(params) {
      return params ? `${this._tr.fixed(params / 1e9, params < 1e10 ? 2 : 1)}B` : "";
    }
    _buildForm() {
      const form = h("form", { class: "vb-form", "aria-label": this._t("form.label"), onsubmit: (e) => e.preventDefault() });
      const runtimeSet = this._runtimeSet();
      const trainingSet = this._blockSet("training", this._t("form.training"), TRAINING_FIELDS);
      const generationSet = this._blockSet("generation", this._t("form.generation"), GENERATION_FIELDS);
      this._blockSets = { inference: runtimeSet, training: trainingSet, generation: generationSet };
      this._generalError = h("p", { class: "vb-field-error", role: "alert", hidden: true });
      this._skip = h("a", {
        class: "vb-skip",
        href: "#",
        "data-testid": "skip-to-results",
        onclick: (e) => {
          e.preventDefault();
          this._results.scrollIntoView();
          this._results.focus();
        }
      }, this._t("form.skip"));
      append(form, [
        this._skip,
        this._languageField(),
        this._generalError,
        this._workloadSet(),
        this._modelSet(),
        runtimeSet,
        trainingSet,
        generationSet,
        this._hardwareSet(),
        this._shareBlock()
      ]);
      replace(this._root, h("div", { class: "vb-layout", lang: this._tr.lang }, form, this._outputs()));
    }
    /** The workload choice, from the workloads the module reads. */
    _workloadSet() {
      const wlLegend = this._newId("wl-legend");
      this._workloadRadios = h(
        "div",
        { class: "vb-workloads", role: "radiogroup", "aria-labelledby": wlLegend },
        core.workloads.map((w) => {
          const name = this._workloadName(w);
          const what = this._tr.has(`workload.${w}.what`) ? this._t(`workload.${w}.what`) : "";
          const radio = h("input", {
            type: "radio",
            name: "workload",
            value: w,
            "data-testid": `workload-${w}`,
            "aria-describedby": `${wlLegend}-${w}`
          });
          radio.addEventListener("change", () => radio.checked && this._onInput("wl", w === core.defaults.workload ? "" : w, true));
          return h("label", { title: what }, radio, h("span", {}, name, h("span", { id: `${wlLegend}-${w}`, hidden: true }, what)));
        })
      );
      const wlSet = h(
        "fieldset",
        {},
        h("legend", { id: wlLegend }, this._t("form.workload")),
        this._workloadRadios,
        this._wlHelp = h("p", { class: "vb-help", "data-testid": "workload-help" })
      );
      this._errors.wl = h("p", { class: "vb-field-error", role: "alert", hidden: true });
      wlSet.append(this._errors.wl);
      return wlSet;
    }
    /** The model: catalog type-ahead, parameter count or config.json; a pipeline id for image and video. */
    _modelSet() {
      const cat = this._catalog;
      const srcLegend = this._newId("src-legend");
      this._radios = h(
        "div",
        { class: "vb-radios", role: "radiogroup", "aria-labelledby": srcLegend },
        ["catalog", "params", "config", "files"].map((value) => {
          const text = this._t(`source.${value}`);
          const radio = h("input", { type: "radio", name: "source", value, "data-testid": `source-${value}` });
          radio.addEventListener("change", () => radio.checked && this._onInput("src", value, true));
          return h("label", { class: "vb-radio" }, radio, ` ${text}`);
        })
      );
      this._errors["model-source"] = h("p", { class: "vb-field-error", role: "alert", hidden: true });
      const configArea = h("textarea", {
        name: "config",
        rows: 6,
        spellcheck: "false",
        "data-testid": "config",
        placeholder: '{"model_type": "llama", "hidden_size": 4096, ...}'
      });
      configArea.addEventListener("input", () => this._onInput("config", configArea.value, false));
      this._sourceBlocks = {
        catalog: this._modelPicker(),
        params: this._field(
          "params",
          this._t("field.params"),
          this._text("params", { inputmode: "text" }),
          this._t("field.params.help"),
          "params"
        ),
        files: this._filesBlock(),
        config: h(
          "div",
          {},
          this._field("config", this._t("field.config"), configArea, this._t("field.config.help")),
          this._field(
            "wbytes",
            this._t("field.wbytes"),
            this._text("wbytes", { placeholder: this._t("field.wbytes.placeholder") }),
            this._t("field.wbytes.help"),
            "bytes"
          )
        )
      };
      const pipelines = Array.isArray(cat.pipelines) ? cat.pipelines : [];
      const pipeListId = this._newId("pipelines");
      this._pipeField = this._field(
        "pipe",
        this._t("field.pipe"),
        this._text("pipe", { placeholder: this._t("field.pipe.placeholder"), list: pipelines.length ? pipeListId : null }),
        this._t("field.pipe.help")
      );
      if (pipelines.length) {
        this._pipeField.append(h(
          "datalist",
          { id: pipeListId },
          pipelines.map((p) => h("option", { value: typeof p === "string" ? p : p.id }))
        ));
      }
      this._modelSources = h("div", {}, this._radios, this._errors["model-source"], Object.values(this._sourceBlocks));
      const modelSet = h(
        "fieldset",
        {},
        h("legend", { id: srcLegend }, this._t("form.model")),
        this._modelSources,
        this._pipeField,
        this._field(
          "weights",
          this._t("field.weights"),
          this._select("weights", [["", this._t("field.weights.own")], ...cat.weight_formats.map((f) => [f, f])]),
          this._t("field.weights.help")
        )
      );
      return modelSet;
    }
    /** The inference runtime: engine, context, concurrency, KV cache, parallelism, vLLM and llama.cpp settings. */
    _runtimeSet() {
      const cat = this._catalog;
      const f = (key, control, kind) => this._field(key, this._t(`field.${key}`), control, this._t(`field.${key}.help`), kind);
      this._hfQuantFields = null;
      const runtimeSet = h(
        "fieldset",
        { "data-block": "inference" },
        h("legend", {}, this._t("form.runtime")),
        f("engine", this._select(
          "engine",
          cat.engines.map((e) => [e, e === cat.defaults.engine ? this._t("option.is-default", e) : e])
        )),
        h(
          "div",
          { class: "vb-row" },
          f("context", this._text("context", { placeholder: this._t("field.context.placeholder") }), "tokens"),
          f("concurrency", this._text("concurrency", { inputmode: "numeric", placeholder: "1" }), "count")
        ),
        h(
          "div",
          { class: "vb-row" },
          f("kv", this._select("kv", [
            ["", this._t("field.kv.auto")],
            ...cat.kv_cache_dtypes.filter((d) => d !== "auto").map((d) => [d, d])
          ])),
          f("tp", this._text("tp", { inputmode: "numeric", placeholder: "1" }), "count")
        ),
        this._gmuField = f("gmu", this._text("gmu", {
          inputmode: "decimal",
          placeholder: this._t("field.gmu.placeholder", this._num(cat.defaults.engines.vllm.gpu_memory_utilization))
        })),
        this._lmoField = f("lmo", this._select(
          "lmo",
          [["", this._t("option.default")], ["true", this._t("option.on")], ["false", this._t("option.off")]]
        )),
        this._llamaFields = shownLater(h("div", { class: "vb-llama", "data-testid": "llama-fields" }), () => {
          const rows = [
            h(
              "div",
              { class: "vb-row" },
              f("ngl", this._text("ngl", { inputmode: "numeric", placeholder: this._t("field.ngl.placeholder") })),
              f("sm", this._select("sm", [["", this._t("field.sm.layer")], ["row", "row"], ["none", this._t("field.sm.none")]]))
            ),
            h(
              "div",
              { class: "vb-row" },
              f("ts", this._text("ts", { placeholder: this._t("field.ts.placeholder"), "data-testid": "tensor-split" })),
              f("mg", this._text("mg", { inputmode: "numeric", placeholder: "0" }))
            )
          ];
          this._fields.sm.setAttribute("data-testid", "split-mode");
          return rows;
        }),
        this._hfFields = shownLater(
          h("div", { class: "vb-transformers", "data-testid": "transformers-fields" }),
          () => this._transformersFields(f)
        )
      );
      return runtimeSet;
    }
    /** transformers generate(): the cache class, the attention, the version, and the quantized cache's settings. */
    _transformersFields(f) {
      const hf = this._catalog.defaults.engines.transformers || {};
      const choices = (names, fallback) => (names || []).map((n) => [
        n === fallback ? "" : n,
        n === fallback ? this._t("option.is-default", n) : n
      ]);
      const backends = hf.backend || [];
      return [
        h(
          "div",
          { class: "vb-row" },
          f("hfc", this._select("hfc", choices(hf.cache_implementation, "dynamic"))),
          f("hfa", this._select("hfa", [
            ["", this._t("field.hfa.version")],
            ...(hf.attn_implementation || []).map((n) => [n, n])
          ]))
        ),
        h(
          "div",
          { class: "vb-row" },
          f("hfv", this._text("hfv", { placeholder: this._t("field.hfv.placeholder") })),
          f("hfn", this._text("hfn", { inputmode: "numeric", placeholder: "0" }), "tokens")
        ),
        this._hfQuantFields = h(
          "div",
          { class: "vb-row", "data-testid": "quantized-cache-fields" },
          f("hfq", this._select("hfq", choices(backends, backends[0]))),
          f("hfb", this._text("hfb", { inputmode: "numeric", placeholder: "4" }), "count"),
          f("hfg", this._text("hfg", { inputmode: "numeric", placeholder: String(hf.q_group_size ?? 64) }), "count"),
          f("hfr", this._text("hfr", { inputmode: "numeric", placeholder: String(hf.residual_length ?? 128) }), "tokens")
        )
      ];
    }
    /** A training or generation block: the everyday inputs first, parallelism and switches under "More settings".
     *  Its inputs are built when it is first shown (`_syncForm`): a page that opens on another workload
     *  does not build them before its first estimate. */
    _blockSet(block, legend, fields) {
      return shownLater(
        h("fieldset", { "data-block": block, "data-testid": `${block}-fields` }, h("legend", {}, legend)),
        () => [
          fields.filter((f) => !f.advanced).map((f) => this._blockField(f)),
          h(
            "details",
            { class: "vb-more", "data-testid": `${block}-more` },
            h("summary", {}, this._t("form.more")),
            fields.filter((f) => f.advanced).map((f) => this._blockField(f))
          )
        ]
      );
    }
    /** The hardware: a catalog GPU or a custom memory size, the count and the headroom. */
    _hardwareSet() {
      const cat = this._catalog;
      const f = (key, control, kind) => this._field(key, this._t(`field.${key}`), control, this._t(`field.${key}.help`), kind);
      const gpuText = (g) => `${g.name} — ${this._bytes(g.memory_bytes).text}`;
      const hwSet = h(
        "fieldset",
        {},
        h("legend", {}, this._t("form.hardware")),
        f("gpu", this._select("gpu", cat.gpus.map((g) => [
          g.id,
          g.id === cat.defaults.gpu ? this._t("option.is-default", gpuText(g)) : gpuText(g)
        ]))),
        f("gpumem", this._text("gpumem", { placeholder: this._t("field.gpumem.placeholder") }), "bytes"),
        f("gpucc", this._text("gpucc", { inputmode: "decimal", placeholder: this._t("field.gpucc.placeholder") })),
        f("gpusm", this._text("gpusm", { inputmode: "numeric", placeholder: this._t("field.gpusm.placeholder") }), "count"),
        h(
          "div",
          { class: "vb-row" },
          f("count", this._text("count", { inputmode: "numeric" }), "count"),
          f("headroom", this._text("headroom", { inputmode: "decimal", placeholder: "10" }))
        )
      );
      return hwSet;
    }
    /** The link, Copy link, and the scenario JSON with its import. */
    _shareBlock() {
      this._permalink = h("a", { class: "vb-permalink", "data-testid": "permalink" }, this._t("share.link"));
      this._scenarioPre = h("pre", { class: "vb-code", "data-testid": "scenario-json" });
      this._accuracyLink = h("a", { "data-testid": "accuracy-link" }, this._t("share.accuracy"));
      return [
        h(
          "p",
          { class: "vb-share" },
          this._permalink,
          " ",
          h("button", { type: "button", class: "vb-apply", "data-testid": "copy-link", onclick: () => this._copyLink() }, this._t("share.copy")),
          this._copyStatus = h("span", { class: "vb-help", role: "status", "data-testid": "copy-status" })
        ),
        h("p", { class: "vb-help" }, this._marked("share.accuracy-what", this._accuracyLink)),
        h(
          "details",
          { "data-testid": "scenario-details" },
          h("summary", {}, this._t("share.scenario")),
          this._scenarioPre,
          this._field(
            "import",
            this._t("field.import"),
            h("textarea", {
              rows: 4,
              spellcheck: "false",
              "data-testid": "import",
              placeholder: '{"v": 1, "workload": "training", "model": "Qwen/Qwen3-8B", ...}'
            }),
            this._t("field.import.help")
          ),
          h("button", { type: "button", class: "vb-apply", "data-testid": "import-load", onclick: () => this._importScenario() }, this._t("import.load")),
          this._importStatus = h("p", { class: "vb-help", role: "status", "data-testid": "import-status" })
        )
      ];
    }
    /** The results column: the banner, the notice and the figures' sections. */
    _outputs() {
      const hid = (k) => this._headingId(k);
      this._out = {
        worked: h("section", { class: "vb-worked", "aria-labelledby": hid("worked") }),
        verdict: h("section", { class: "vb-verdict", "aria-live": "polite", "data-testid": "verdict", tabindex: "-1" }),
        bar: h("section", { "aria-labelledby": hid("bar") }),
        table: h("section", { "aria-labelledby": hid("table") }),
        gpus: h("section", { "aria-labelledby": hid("gpus"), "data-testid": "per-gpu" }),
        metrics: h("section", { "aria-labelledby": hid("metrics") }),
        reconcile: this._reconcileSection(),
        chart: h("section", { "aria-labelledby": hid("chart") }),
        grid: h("details", {
          class: "vb-grid-map",
          "data-testid": "fit-map",
          ontoggle: (e) => {
            if (e.target.open) this._renderGrid();
          }
        }),
        plan: h("section", { "aria-labelledby": hid("plan"), "data-testid": "plan" })
      };
      this._banner = h("div", { class: "vb-banner", role: "alert", hidden: true, "data-testid": "error-banner" });
      this._notice = h("div", { class: "vb-notice", hidden: true, "data-testid": "notice", role: "status" });
      this._figures = h("div", { class: "vb-figures", hidden: true }, Object.values(this._out));
      this._results = h(
        "div",
        { class: "vb-results", "data-testid": "results", tabindex: "-1", "aria-label": this._t("results.label") },
        this._banner,
        this._notice,
        this._figures
      );
      return this._results;
    }
    _headingId(key) {
      if (!this._headingIds) this._headingIds = {};
      if (!this._headingIds[key]) this._headingIds[key] = this._newId(`h-${key}`);
      return this._headingIds[key];
    }
    /** Put the state into the form controls (after a hash read, an attribute or an applied hint). */
    _syncForm() {
      if (!this._fields.engine) return;
      const st = this._state;
      const wl = workloadOf(st);
      for (const radio of this._workloadRadios.querySelectorAll("input")) radio.checked = radio.value === wl;
      this._wlHelp.textContent = this._tr.has(`workload.${wl}.what`) ? this._t("workload.help", this._workloadName(wl), this._t(`workload.${wl}.what`)) : "";
      for (const radio of this._radios.querySelectorAll("input")) radio.checked = radio.value === st.src;
      for (const [key, block2] of Object.entries(this._sourceBlocks)) {
        block2.hidden = key !== st.src && !(key === "config" && st.src === "files");
      }
      const pipeline = usesPipeline(st);
      this._modelSources.hidden = pipeline;
      this._pipeField.hidden = !pipeline;
      const block = blockOf(st);
      const sample = sampleFields(st);
      for (const [name, set] of Object.entries(this._blockSets))
        show(set, name === block || name === "generation" && sample.length > 0);
      const engine = engineOf(st);
      show(this._llamaFields, engineReads(engine, "n_gpu_layers"));
      show(this._hfFields, engineReads(engine, "cache_implementation"));
      const shown = new Set([...blockFields(st), ...sample].map((f) => f.key));
      for (const f of [...TRAINING_FIELDS, ...GENERATION_FIELDS]) {
        if (this._fields[f.key]) this._fields[f.key].closest(".vb-field").hidden = !shown.has(f.key);
      }
      for (const [key, control] of Object.entries(this._fields)) {
        if (key === "import") continue;
        const want = key === "gpu" && st.gpu === "" ? core.defaults.gpu : key === "engine" && st.engine === "" ? core.defaults.engine : this._shownText(key, st[key] ?? "");
        if (control.value !== want && this._root.activeElement !== control) {
          if (control.tagName === "SELECT" && want !== "" && ![...control.options].some((o) => o.value === want)) {
            control.append(h("option", { value: want }, this._t("option.not-in-catalog", want)));
          }
          control.value = want;
        }
      }
      for (const key of Object.keys(this._understood)) this._showUnderstood(key);
      this._gmuField.hidden = !engineReads(engine, "gpu_memory_utilization");
      this._lmoField.hidden = !engineReads(engine, "language_model_only");
      if (this._hfQuantFields) this._hfQuantFields.hidden = this._hfFields.hidden || st.hfc !== "quantized";
    }
    /** How a number input's text was read, as the input shows it, in the page's language. */
    _showUnderstood(key) {
      const u = this._understood[key];
      const control = this._fields[key];
      const shown = control ? control.value : this._shownText(key, this._state[key] ?? "");
      const text = parseQuantity(shown, u.kind, this._tr.lang).understood;
      u.el.textContent = text;
      u.el.hidden = text === "";
    }
  };

  // web/src/files.js
  function modelFileKind(name) {
    const n = String(name).toLowerCase().replace(/^.*\//, "");
    if (n.endsWith(".safetensors")) return "shard";
    if (n.endsWith(".safetensors.index.json")) return "index";
    if (n.endsWith(".gguf")) return "gguf";
    if (n === "config.json") return "config";
    if (n === "model_index.json") return "pipeline";
    return "";
  }
  function asModelFile(file, path) {
    const name = String(path || file.webkitRelativePath || file.name).replace(/^\/+/, "");
    return { name, size: file.size, slice: (a, b) => file.slice(a, b) };
  }
  async function droppedFiles(dataTransfer, limit = 4096) {
    const out = [];
    const items = dataTransfer.items ? [...dataTransfer.items] : [];
    const entries = items.map((i) => i.webkitGetAsEntry ? i.webkitGetAsEntry() : null);
    if (!entries.some(Boolean)) return [...dataTransfer.files || []].slice(0, limit).map((f) => asModelFile(f));
    const fileOf = (entry) => new Promise((resolve, reject) => entry.file(resolve, reject));
    const readBatch = (reader) => new Promise((resolve, reject) => reader.readEntries(resolve, reject));
    async function walk(entry, depth) {
      if (!entry || out.length >= limit) return;
      if (entry.isFile) {
        out.push(asModelFile(await fileOf(entry), entry.fullPath));
      } else if (entry.isDirectory && depth < 4) {
        const reader = entry.createReader();
        for (let batch = await readBatch(reader); batch.length && out.length < limit; batch = await readBatch(reader)) {
          for (const e of batch) await walk(e, depth + 1);
        }
      }
    }
    for (const e of entries) await walk(e, 0);
    return out;
  }
  var FilesMethods = class {
    /** The "Model files" source: a drop zone, file and folder pickers, what was read. */
    _filesBlock() {
      const pick = h("input", {
        type: "file",
        multiple: true,
        hidden: true,
        "data-testid": "files-input",
        accept: ".safetensors,.gguf,.json",
        "aria-label": this._t("files.files")
      });
      const folder = h("input", {
        type: "file",
        multiple: true,
        hidden: true,
        webkitdirectory: true,
        "data-testid": "folder-input",
        "aria-label": this._t("files.folder")
      });
      pick.addEventListener("change", () => {
        this._readFiles([...pick.files].map((f) => asModelFile(f)));
        pick.value = "";
      });
      folder.addEventListener("change", () => {
        this._readFiles([...folder.files].map((f) => asModelFile(f)));
        folder.value = "";
      });
      const zone = h(
        "div",
        { class: "vb-drop", "data-testid": "files-drop" },
        h("p", {}, this._marked("files.drop", h("code", {}, "config.json"))),
        h(
          "p",
          { class: "vb-drop-buttons" },
          pick,
          folder,
          h("button", { type: "button", class: "vb-apply", onclick: () => pick.click() }, this._t("files.choose-files")),
          h("button", { type: "button", class: "vb-apply", onclick: () => folder.click() }, this._t("files.choose-folder"))
        ),
        h("p", { class: "vb-help" }, this._t("files.local"))
      );
      zone.addEventListener("dragover", (e) => {
        e.preventDefault();
        zone.classList.add("vb-drop-over");
      });
      zone.addEventListener("dragleave", () => zone.classList.remove("vb-drop-over"));
      zone.addEventListener("drop", (e) => {
        e.preventDefault();
        zone.classList.remove("vb-drop-over");
        droppedFiles(e.dataTransfer).then((files) => this._readFiles(files), (err) => this._showFilesError("files.as-is", err.message));
      });
      this._filesSummary = h("div", { class: "vb-files-summary", "data-testid": "files-summary", "aria-live": "polite" });
      this._filesError = h("p", { class: "vb-field-error", role: "alert", "data-testid": "files-error", hidden: true });
      return h("div", { class: "vb-field", "data-field": "files" }, zone, this._filesError, this._filesSummary);
    }
    /** The files' error from a table string (said again in another language). */
    _showFilesError(key, ...args) {
      this._filesErrorSaid = [key, ...args];
      this._filesError.textContent = this._t(key, ...args);
      this._filesError.hidden = false;
    }
    /** Reads the headers of `files`, shows what they hold and estimates with them. */
    async _readFiles(files) {
      this._filesSeq = (this._filesSeq || 0) + 1;
      const seq = this._filesSeq;
      const taken = files.filter((f) => modelFileKind(f.name));
      const skipped = files.filter((f) => !modelFileKind(f.name)).map((f) => f.name);
      this._filesError.hidden = true;
      this._filesErrorSaid = null;
      if (!taken.length) {
        replace(this._filesSummary);
        if (files.length) this._showFilesError("files.none-model", `${skipped.slice(0, 5).join(", ")}${skipped.length > 5 ? ", …" : ""}`);
        else this._showFilesError("files.none-given");
        return;
      }
      replace(this._filesSummary, h("p", { class: "vb-loading", role: "status" }, this._t("files.reading", taken.length)));
      let result;
      try {
        result = await this._module.inspectFiles(taken);
      } catch (e) {
        result = { ok: false, error: { path: "", i18n: ["error.call", "inspectFiles", e.message] } };
      }
      if (seq !== this._filesSeq) return;
      this._inspection = result;
      this._inspectionSkipped = skipped;
      if (!result.ok) {
        replace(this._filesSummary);
        const err = result.error;
        if (err.i18n) this._showFilesError(...err.i18n);
        else this._showFilesError("files.as-is", `${err.path ? `${err.path}: ` : ""}${err.message}`);
        return;
      }
      this._renderInspection(result, skipped);
      if (result.format === "diffusers") return;
      const model = result.model || {};
      const changes = {
        src: "files",
        config: model.config ? JSON.stringify(model.config, null, 2) : "",
        wbytes: model.weights_bytes !== void 0 ? String(model.weights_bytes) : "",
        fileParams: model.config ? void 0 : model.params
      };
      if (result.weights) changes.weights = result.weights;
      this._setState(changes);
    }
    /** Format, files and bytes read, tensors, bytes by dtype, architecture, notes. */
    _renderInspection(r, skipped) {
      const arch = r.architecture || {};
      const tensors = (n, bytes) => this._t("files.tensors", this._num(n), this._exact(bytes), this._bytes(bytes).text);
      const rows = [
        [this._t("files.format"), r.format + (r.gguf_version ? this._t("files.version", r.gguf_version) : "") + (r.weights ? `, ${r.weights}` : "")],
        [this._t("files.tensors-row"), tensors(r.tensors, r.tensor_bytes)],
        [this._t("files.by-dtype"), Object.entries(r.by_dtype || {}).map(([d, b]) => `${d} ${this._bytes(b).text}`).join(", ")]
      ];
      const archText = [
        arch.gguf_architecture,
        arch.blocks !== void 0 ? this._t("files.blocks", this._num(arch.blocks)) : "",
        arch.tied_embeddings !== void 0 ? this._t(arch.tied_embeddings ? "files.tied" : "files.untied") : "",
        arch.quantized_layout || ""
      ].filter(Boolean).join(", ");
      if (archText) rows.push([this._t("files.architecture"), archText]);
      if (r.format === "diffusers") {
        rows.splice(0, 1, [this._t("files.format"), this._t("files.pipeline", r.pipeline_class || "")]);
        for (const c of r.components || []) {
          rows.push([c.component, `${tensors(c.tensors, c.tensor_bytes)} (${Object.keys(c.by_dtype || {}).join(", ")})`]);
        }
      } else {
        rows.push([this._t("files.model"), r.model && r.model.config ? this._t("files.config-found") : r.model && r.model.params ? this._t("files.weights-only", this._num(r.model.params)) : this._t("files.no-config")]);
      }
      const table = h(
        "table",
        { class: "vb-files-table" },
        h("caption", {}, this._t("files.read")),
        h("tbody", {}, rows.map(([k, v]) => h("tr", {}, h("th", { scope: "row" }, k), h("td", {}, v))))
      );
      const fileList = h(
        "ul",
        { class: "vb-files-list", "data-testid": "files-list" },
        (r.files || []).map((f) => h("li", {}, this._t("files.file-read", f.name, this._exact(f.bytes_read), this._bytes(f.file_size).text)))
      );
      const notes = [...r.notes || [], ...skipped.length ? [this._t("files.skipped", skipped.join(", "))] : []];
      replace(
        this._filesSummary,
        table,
        fileList,
        notes.length ? h("ul", { class: "vb-notes" }, notes.map((n) => h("li", {}, n))) : null
      );
    }
  };

  // web/src/labels.js
  var COLOURS = {
    weights: "#3b6fd4",
    kv_cache: "#c46f0a",
    activations: "#25845a",
    non_torch: "#8a63c7",
    cuda_graphs: "#c2497b",
    cuda_context: "#5f6b7a",
    rotary_cache: "#1b7f96",
    allocator_cache: "#8c7020",
    gradients: "#c73a4d",
    optimizer_state: "#7d4e24",
    master_weights: "#4d8f2a",
    text_encoder: "#5c6bc0",
    vae: "#00796b",
    latents: "#6d5bd0",
    vae_decode: "#00796b"
  };
  var FALLBACK_COLOURS = ["#8a55d0", "#2f7f7f", "#a85a18", "#5f7f1f", "#aa3377", "#337799"];
  function colourOf(id, index) {
    return COLOURS[id] || FALLBACK_COLOURS[index % FALLBACK_COLOURS.length];
  }

  // web/src/views/report.js
  var ReportViews = class {
    _renderWorked(report) {
      const w = report.components.find((c) => c.id === "weights");
      const weights = report.details && report.details.weights;
      replace(
        this._out.worked,
        this._heading("worked", this._t("worked.title")),
        w ? h("p", { class: "vb-formula-line", "data-testid": "weights-formula" }, w.formula) : h("p", { "data-testid": "weights-formula" }, this._t("worked.none")),
        h(
          "p",
          { class: "vb-help" },
          weights && weights.summary ? `${weights.format}: ${weights.summary}. ` : "",
          this._t("worked.lower-bound")
        )
      );
    }
    _renderVerdict(report) {
      const free = this._bytes(Math.abs(report.free_bytes));
      const usable = this._bytes(report.usable_bytes);
      const gpu = report.details && report.details.gpu;
      const el = this._out.verdict;
      el.className = `vb-verdict ${report.fits ? "vb-fits" : "vb-short"}`;
      replace(
        el,
        h(
          "p",
          { class: "vb-verdict-line" },
          h("strong", {}, this._t(report.fits ? "verdict.fits" : "verdict.short")),
          ` — ${this._t("verdict.per-gpu", this._bytes(report.total_bytes).text, usable.text)}`,
          gpu ? ` ${this._t("verdict.on", `${gpu.count > 1 ? `${gpu.count} × ` : ""}${this._gpuName(gpu)}`)}` : "",
          "; ",
          report.fits ? this._t("verdict.free", free.text, this._exact(report.free_bytes)) : this._t("verdict.short-by", free.text, this._exact(Math.abs(report.free_bytes)))
        ),
        report.warnings.length ? h(
          "ul",
          { class: "vb-warnings", "aria-label": this._t("verdict.warnings") },
          report.warnings.map((w) => h("li", {}, w))
        ) : null,
        report.defaults_used.length ? h(
          "p",
          { class: "vb-defaults" },
          h("span", {}, this._t("verdict.defaults"), " "),
          report.defaults_used.map((d, i) => [i ? ", " : "", h("code", {}, d)])
        ) : null
      );
    }
    _renderBar(report) {
      const scale = Math.max(report.capacity_bytes, report.total_bytes);
      const pct = (b) => `${(100 * b / scale).toFixed(3)}%`;
      const track = h("div", {
        class: "vb-bar-track",
        role: "img",
        "aria-label": this._t(
          "bar.label",
          report.components.map((c) => `${c.label} ${this._bytes(c.bytes).text}`).join(", "),
          this._bytes(report.usable_bytes).text,
          this._bytes(report.capacity_bytes).text
        )
      });
      const capacity = h("div", { class: "vb-bar-capacity", style: { width: pct(report.capacity_bytes) } });
      const headroom = h("div", {
        class: "vb-bar-headroom",
        style: { left: pct(report.usable_bytes), width: pct(report.capacity_bytes - report.usable_bytes) },
        title: this._t("bar.headroom-kept")
      });
      append(track, capacity, headroom);
      let left = 0;
      report.components.forEach((c, i) => {
        if (c.bytes <= 0) return;
        const wide = c.bytes / scale > 0.09;
        append(track, h("div", {
          class: "vb-bar-seg",
          title: `${c.label}: ${this._bytes(c.bytes).text}`,
          style: { left: pct(left), width: pct(c.bytes), background: colourOf(c.id, i) }
        }, wide ? h("span", {}, `${c.label} ${this._bytes(c.bytes).text}`) : null));
        left += c.bytes;
      });
      append(
        track,
        h(
          "div",
          { class: "vb-bar-line vb-usable", style: { left: pct(report.usable_bytes) } },
          h("span", {}, this._t("bar.usable", this._bytes(report.usable_bytes).text))
        ),
        h(
          "div",
          { class: "vb-bar-line vb-cap", style: { left: pct(report.capacity_bytes) } },
          h("span", {}, this._t("bar.capacity", this._bytes(report.capacity_bytes).text))
        )
      );
      const legend = h(
        "ul",
        { class: "vb-legend" },
        report.components.map((c, i) => h(
          "li",
          {},
          h("span", { class: "vb-swatch", style: { background: colourOf(c.id, i) } }),
          `${c.label} ${this._bytes(c.bytes).text}`
        )),
        h("li", {}, h("span", { class: "vb-swatch vb-swatch-headroom" }), this._t("bar.headroom"))
      );
      replace(this._out.bar, this._heading("bar", this._t("bar.title")), track, legend);
    }
    _renderTable(report) {
      const rows = report.components.map((c, i) => h(
        "tr",
        { "data-component": c.id },
        h("th", { scope: "row" }, h("span", { class: "vb-swatch", style: { background: colourOf(c.id, i) } }), c.label),
        h("td", { class: "vb-num" }, this._exact(c.bytes)),
        h(
          "td",
          { class: "vb-num" },
          this._bytes(c.bytes).value,
          c.range && c.range.low !== c.range.high ? h(
            "div",
            { class: "vb-range", "data-range": c.id },
            `${this._bytes(c.range.low).value}–${this._bytes(c.range.high).value}`
          ) : null
        ),
        h("td", { class: "vb-formula" }, c.formula),
        h("td", { class: "vb-source" }, c.source)
      ));
      const details = report.details || {};
      const engine = details.engine || {};
      const foot = [
        [this._t("table.total"), report.total_bytes, this._t("table.sum"), ""],
        [this._t("table.usable"), report.usable_bytes, details.fit && details.fit.usable_formula || "", engine.requested_formula ? `vLLM: ${engine.requested_formula}` : ""],
        [this._t("table.capacity"), report.capacity_bytes, details.gpu ? this._gpuName(details.gpu) : "", ""]
      ].map(([label, bytes, formula, source]) => h(
        "tr",
        {},
        h("th", { scope: "row" }, label),
        h("td", { class: "vb-num" }, this._exact(bytes)),
        h("td", { class: "vb-num" }, this._bytes(bytes).value),
        h("td", { class: "vb-formula" }, formula),
        h("td", { class: "vb-source" }, source)
      ));
      replace(
        this._out.table,
        this._heading("table", this._t("table.title")),
        h("div", { class: "vb-scroll", tabindex: "0", role: "region", "aria-label": this._t("table.region") }, h(
          "table",
          { class: "vb-table" },
          h("thead", {}, h(
            "tr",
            {},
            h("th", { scope: "col" }, this._t("table.component")),
            h("th", { scope: "col" }, this._t("table.exact")),
            h("th", { scope: "col" }, this._bytes(0).label),
            h("th", { scope: "col" }, this._t("table.formula")),
            h("th", { scope: "col" }, this._t("table.source"))
          )),
          h("tbody", {}, rows),
          h("tfoot", {}, foot)
        ))
      );
    }
    /** llama.cpp's split: every GPU's layers and budget, and what stays in host memory. */
    _renderGpus(report) {
      const out = this._out.gpus;
      const split = report.details && report.details.split;
      out.hidden = !split;
      if (!split) {
        out.replaceChildren();
        out.removeAttribute("aria-labelledby");
        return;
      }
      out.setAttribute("aria-labelledby", this._headingId("gpus"));
      const cell = (b) => h("td", { class: "vb-num" }, this._bytes(b).text);
      const rows = split.gpus.map((g) => h(
        "tr",
        { "data-gpu": g.gpu, class: g.gpu === split.heaviest ? "vb-heaviest" : null },
        h("th", { scope: "row" }, this._t(g.gpu === split.heaviest ? "gpus.fullest" : "gpus.gpu", g.gpu)),
        h("td", {}, g.used ? `${g.layers}${g.n_layers ? ` (${this._num(g.n_layers)})` : ""}` : this._t("gpus.idle")),
        cell(g.weights_bytes),
        cell(g.kv_bytes),
        cell(g.compute_bytes),
        cell(g.context_bytes),
        cell(g.total_bytes)
      ));
      const cpu = split.first_gpu_layer;
      const host = h(
        "tr",
        { "data-gpu": "host" },
        h("th", { scope: "row" }, this._t("gpus.host")),
        h("td", {}, `token_embd${cpu > 0 ? this._t("gpus.host-layers", cpu - 1) : ""}${split.n_gpu_layers <= split.n_layer ? " + output" : ""}`),
        cell(split.host_weights_bytes),
        cell(split.host_kv_bytes),
        h("td", {}, ""),
        h("td", {}, ""),
        cell(split.host_bytes)
      );
      replace(
        out,
        this._heading("gpus", this._t("gpus.title", split.split_mode)),
        h("div", { class: "vb-scroll", tabindex: "0", role: "region", "aria-label": this._t("gpus.region") }, h(
          "table",
          { class: "vb-table" },
          h("thead", {}, h("tr", {}, ["gpu", "layers", "weights", "kv", "compute", "context", "total"].map((t) => h("th", { scope: "col" }, this._t(`gpus.col.${t}`))))),
          h("tbody", {}, rows, host)
        )),
        h(
          "p",
          { class: "vb-help" },
          this._t("gpus.fullest-decides"),
          " ",
          split.pipeline_parallel ? this._t("gpus.pipelined", this._bytes(split.pipeline_copies_bytes).text) : ""
        ),
        h("p", { class: "vb-source" }, split.source)
      );
    }
    _renderMetrics(report) {
      const items = Object.entries(report.metrics).map(([name, value]) => {
        let text;
        const range = report.ranges && report.ranges[name];
        if (name.endsWith("_bytes")) {
          text = `${this._bytes(value).text} (${this._exact(value)})`;
          if (Array.isArray(range) && range[0] !== range[1]) {
            text += `, ${this._t("metrics.range", `${this._bytes(range[0]).value}–${this._bytes(range[1]).text}`)}`;
          }
        } else if (name === "kv_bytes_per_token") text = this._exact(value);
        else if (name === "max_concurrency") text = `${this._num(value)}×`;
        else if (name.endsWith("_tokens")) text = this._t("unit.tokens", this._num(value));
        else text = this._num(value);
        const label = this._tr.has(`metric.${name}`) ? this._t(`metric.${name}`) : name;
        return [h("dt", {}, label, " ", h("code", {}, name)), h("dd", { "data-metric": name }, text)];
      });
      const engine = report.details && report.details.engine || {};
      const formulas = Object.entries(engine).filter(([k, v]) => k.endsWith("_formula") && v).map(([k, v]) => h("li", {}, h("code", {}, k.replace(/_formula$/, "")), " ", v));
      replace(
        this._out.metrics,
        this._heading("metrics", this._t("metrics.title")),
        h("dl", { class: "vb-metrics" }, items),
        formulas.length ? h(
          "div",
          {},
          h("h3", {}, engine.engine ? this._t("metrics.engine", engine.engine) : this._t("metrics.the-engine")),
          h("ul", { class: "vb-engine-formulas" }, formulas),
          engine.source ? h("p", { class: "vb-source" }, engine.source) : null
        ) : null,
        this._measureView(report.details && report.details.measure)
      );
    }
    /** A GPU's name as the report gives it; the custom card's in the page's language. */
    _gpuName(gpu) {
      return gpu.name === CUSTOM_GPU && this._state.gpumem !== "" ? this._t("gpu.custom") : gpu.name;
    }
    /** How to measure this scenario: the core's command line or script, and which output line is which metric. */
    _measureView(m) {
      if (!m || !m.text) return null;
      const code = h("pre", { class: "vb-code", "data-testid": "measure-command", tabindex: "0" }, h("code", {}, m.text));
      const copy = h("button", { type: "button", class: "vb-apply", "data-testid": "measure-copy" }, this._t("measure.copy"));
      copy.addEventListener("click", () => {
        const done = () => {
          copy.textContent = this._t("measure.copied");
          setTimeout(() => {
            copy.textContent = this._t("measure.copy");
          }, 1500);
        };
        if (navigator.clipboard) navigator.clipboard.writeText(m.text).then(done, () => {
        });
      });
      return h(
        "div",
        { class: "vb-measure", "data-testid": "measure" },
        h("h3", {}, this._t("measure.title"), " ", copy),
        h("p", { class: "vb-help" }, this._t(m.kind === "command" ? "measure.command" : "measure.step")),
        code,
        h("ul", { class: "vb-look-for" }, (m.look_for || []).map((r) => h("li", {}, h("code", {}, r.metric), " ← ", r.line))),
        m.note ? h("p", { class: "vb-help" }, m.note) : null
      );
    }
  };

  // web/src/views/chart.js
  var CHART_WORDS = {
    context: { title: "chart.title", label: "chart.label", axis: "chart.axis", unit: "unit.tokens", marked: "chart.marked" },
    seq_len: { title: "chart.title-seq", label: "chart.label-seq", axis: "chart.axis-seq", unit: "unit.tokens", marked: "chart.marked-seq" },
    height: { title: "chart.title-size", label: "chart.label-size", axis: "chart.axis-size", unit: "unit.px", marked: "chart.marked-size" },
    frames: { title: "chart.title-frames", label: "chart.label-frames", axis: "chart.axis-frames", unit: "unit.frames", marked: "chart.marked-frames" },
    batch: { title: "chart.title-batch", label: "chart.label-batch", axis: "chart.axis-batch", unit: "unit.samples", marked: "chart.marked-batch" },
    micro_batch: { title: "chart.title-mb", label: "chart.label-mb", axis: "chart.axis-mb", unit: "unit.samples", marked: "chart.marked-mb" }
  };
  function planAnswer(plan, axis) {
    switch (axis) {
      case "seq_len":
        return plan.max_seq_len_with_headroom;
      case "height":
        return plan.max_size ? plan.max_size.height : void 0;
      case "frames":
        return plan.max_frames === null ? void 0 : plan.max_frames;
      case "batch":
        return plan.max_batch === null ? void 0 : plan.max_batch;
      case "micro_batch":
        return plan.max_micro_batch;
      default:
        return plan.max_context_tokens;
    }
  }
  var ChartView = class {
    _renderChart(sweep, report, plan) {
      const out = this._out.chart;
      const axis = sweep && sweep.ok ? sweep.axis : { training: "seq_len", image: "height", video: "frames" }[workloadOf(this._state)] || "context";
      const words = CHART_WORDS[axis] || CHART_WORDS.context;
      const title = this._t(words.title);
      if (!sweep || !sweep.ok) {
        replace(
          out,
          this._heading("chart", title),
          h("p", { class: "vb-field-error" }, sweep ? this._message(sweep.error) : this._t("chart.none"))
        );
        return;
      }
      const pointName = (c, i) => axis === "height" ? this._t("unit.size", this._num(sweep.widths[i]), this._num(c)) : this._t(words.unit, this._num(c));
      const W = 720;
      const H = 280;
      const m = { l: 64, r: 16, t: 16, b: 44 };
      const xs = sweep.contexts.map((c) => Math.log2(c));
      const x0 = Math.min(...xs);
      const x1 = Math.max(...xs);
      const X = (c) => m.l + (x1 === x0 ? 0.5 : (Math.log2(c) - x0) / (x1 - x0)) * (W - m.l - m.r);
      const yMaxBytes = Math.max(sweep.capacity_bytes, ...sweep.totals) * 1.05;
      const Y = (b) => H - m.b - b / yMaxBytes * (H - m.t - m.b);
      const yMax = yMaxBytes / 2 ** 30;
      const step = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1e3, 2e3, 5e3].find((st) => yMax / st <= 6) || 1e4;
      const svg = s("svg", {
        viewBox: `0 0 ${W} ${H}`,
        class: "vb-chart",
        role: "img",
        "data-testid": "sweep-chart",
        "aria-label": this._t(
          words.label,
          this._num(sweep.concurrency),
          sweep.contexts.map((c, i) => `${pointName(c, i)} ${this._bytes(sweep.totals[i]).text}`).join("; ")
        )
      });
      for (let g = 0; g <= yMax; g += step) {
        const y = Y(g * 2 ** 30);
        append(
          svg,
          s("line", { x1: m.l, x2: W - m.r, y1: y, y2: y, class: "vb-grid" }),
          s("text", { x: m.l - 6, y: y + 4, "text-anchor": "end", class: "vb-tick" }, `${this._num(g)} ${this._bytes(0).label}`)
        );
      }
      let lastLabelX = -Infinity;
      sweep.contexts.forEach((c) => {
        append(svg, s("line", { x1: X(c), x2: X(c), y1: H - m.b, y2: H - m.b + 4, class: "vb-axis" }));
        if (X(c) - lastLabelX < 48) return;
        lastLabelX = X(c);
        append(svg, s("text", { x: X(c), y: H - m.b + 16, "text-anchor": "middle", class: "vb-tick" }, this._num(c)));
      });
      append(
        svg,
        s(
          "text",
          { x: (m.l + W - m.r) / 2, y: H - 6, "text-anchor": "middle", class: "vb-axis-label" },
          this._t(words.axis, this._num(sweep.concurrency))
        ),
        s("line", { x1: m.l, x2: W - m.r, y1: H - m.b, y2: H - m.b, class: "vb-axis" }),
        s("line", { x1: m.l, x2: W - m.r, y1: Y(sweep.capacity_bytes), y2: Y(sweep.capacity_bytes), class: "vb-cap-line" }),
        s(
          "text",
          { x: W - m.r - 4, y: Y(sweep.capacity_bytes) - 5, "text-anchor": "end", class: "vb-line-label" },
          this._t("bar.capacity", this._bytes(sweep.capacity_bytes).text)
        ),
        s("line", { x1: m.l, x2: W - m.r, y1: Y(sweep.usable_bytes), y2: Y(sweep.usable_bytes), class: "vb-usable-line" }),
        s(
          "text",
          { x: m.l + 6, y: Y(sweep.usable_bytes) - 5, class: "vb-line-label vb-usable-label" },
          this._t("bar.usable", this._bytes(sweep.usable_bytes).text)
        )
      );
      const d = sweep.contexts.map((c, i) => `${i ? "L" : "M"}${X(c).toFixed(1)},${Y(sweep.totals[i]).toFixed(1)}`).join(" ");
      append(svg, s("path", { d, class: "vb-total-line" }));
      sweep.contexts.forEach((c, i) => append(svg, s("circle", {
        cx: X(c),
        cy: Y(sweep.totals[i]),
        r: 4,
        class: sweep.fits[i] ? "vb-pt-fit" : "vb-pt-short"
      }, s("title", {}, this._t(
        "chart.point",
        pointName(c, i),
        this._bytes(sweep.totals[i]).text,
        this._exact(sweep.totals[i]),
        sweep.fits[i]
      )))));
      const answer = plan && plan.ok ? planAnswer(plan, axis) : void 0;
      const lo = Math.min(...sweep.contexts);
      const hi = Math.max(...sweep.contexts);
      let marked = null;
      if (answer > 0 && answer >= lo && answer <= hi) {
        const x = X(answer);
        append(
          svg,
          s("line", { x1: x, x2: x, y1: m.t, y2: H - m.b, class: "vb-answer-line", "data-testid": "chart-answer" }),
          s(
            "text",
            { x: x + (x > W / 2 ? -4 : 4), y: m.t + 12, "text-anchor": x > W / 2 ? "end" : "start", class: "vb-line-label" },
            this._t(axis === "context" || axis === "seq_len" ? "chart.answer" : "chart.answer-most", this._num(answer))
          )
        );
        marked = this._t(words.marked, axis === "height" ? this._t("unit.size", this._num(plan.max_size.width), this._num(answer)) : this._t(words.unit, this._num(answer)));
      }
      replace(
        out,
        this._heading("chart", title),
        svg,
        h("p", { class: "vb-help" }, this._t("chart.points"), marked ? ` ${marked}` : "")
      );
    }
    /** Context × concurrency: which pairs fit (the module's grid), drawn only
     *  while its section is open, since it costs a few milliseconds. */
    _renderGrid() {
      const out = this._out.grid;
      out.hidden = usesPipeline(this._state);
      if (out.hidden) return;
      const training = workloadOf(this._state) === "training";
      const [rowName, colName, colWhat] = training ? ["seq_len", this._t("map.micro-batch"), this._t("map.samples")] : [this._t("map.context"), this._t("map.concurrency"), this._t("map.sequences")];
      const summary = h("summary", {}, this._t("map.title", rowName, colName));
      if (!out.open || !this._plannedText) {
        replace(out, summary);
        return;
      }
      const grid = call(this._module, "grid", this._plannedText, 8, 8);
      if (!grid.ok) {
        replace(out, summary, h("p", { class: "vb-field-error" }, `${grid.error.path} ${this._message(grid.error)}`));
        return;
      }
      const n = grid.concurrencies.length;
      const rows = grid.contexts.map((ctx, i) => h(
        "tr",
        {},
        h("th", { scope: "row", class: "vb-num" }, this._num(ctx)),
        grid.concurrencies.map((conc, j) => {
          const total = grid.totals[j * grid.contexts.length + i];
          const fits = conc <= grid.max_fitting_concurrency[i];
          return h(
            "td",
            {
              class: `vb-num ${fits ? "vb-cell-fit" : "vb-cell-short"}`,
              "data-fit": fits ? "yes" : "no",
              title: total === null ? this._t("map.beyond") : `${this._t("unit.tokens", this._num(ctx))} × ${conc}: ${this._exact(total)}`
            },
            fits ? "✓ " : "✗ ",
            total === null ? "—" : this._bytes(total).value
          );
        })
      ));
      replace(
        out,
        summary,
        h(
          "div",
          { class: "vb-scroll", tabindex: "0", role: "region", "aria-label": this._t("map.region") },
          h(
            "table",
            { class: "vb-table vb-map", "data-testid": "fit-map-table" },
            h("caption", { class: "vb-help" }, this._t("map.caption", this._bytes(0).label, rowName, colWhat, this._bytes(grid.usable_bytes).text)),
            h("thead", {}, h(
              "tr",
              {},
              h("th", { scope: "col" }, rowName),
              grid.concurrencies.map((c) => h("th", { scope: "col", class: "vb-num" }, `×${c}`))
            )),
            h("tbody", {}, rows)
          )
        ),
        h("p", { class: "vb-help" }, this._t("map.most", colWhat, rowName, grid.contexts.map((c, i) => `${this._num(c)}: ${grid.max_fitting_concurrency[i]}${grid.max_fitting_concurrency[i] >= grid.concurrencies[n - 1] ? "+" : ""}`)))
      );
    }
  };

  // web/src/views/plan.js
  var PlanView = class {
    _renderPlan(plan) {
      const out = this._out.plan;
      if (!plan || !plan.ok) {
        replace(
          out,
          this._heading("plan", this._t("plan.title")),
          h("p", { class: "vb-field-error" }, plan ? `${plan.error.path} ${this._message(plan.error)}` : this._t("plan.none"))
        );
        return;
      }
      const na = this._t("plan.na");
      const tokens = (n) => this._t("unit.tokens", this._num(n));
      const solved = plan.max_batch !== void 0 ? this._generationSolved(plan) : plan.max_seq_len !== void 0 ? this._trainingSolved(plan) : plan.max_micro_batch !== void 0 ? this._sampleSolved(plan) : [
        [this._t("plan.max-context"), plan.max_context_tokens !== void 0 ? `${tokens(plan.max_context_tokens)}${plan.max_context_limit ? ` ${this._t("plan.model-limit", this._num(plan.max_context_limit))}` : ""}` : na, "max-context"],
        [this._t("plan.max-concurrency"), plan.max_concurrency !== void 0 ? this._num(plan.max_concurrency) : na, "max-concurrency"],
        [this._t("plan.smallest-tp"), plan.smallest_tensor_parallel !== void 0 && plan.smallest_tensor_parallel !== null ? this._num(plan.smallest_tensor_parallel) : this._t("plan.no-tp"), "smallest-tp"]
      ];
      if (plan.max_seq_len === void 0 && plan.max_gpu_layers !== void 0) {
        const g = plan.max_gpu_layers;
        solved.push([
          this._t("plan.max-layers"),
          g === null ? this._t("plan.no-layers") : `${this._t("plan.layers-of", this._num(g.n_gpu_layers), this._num(g.n_layer + 1))}${g.all_layers ? ` ${this._t("plan.all-layers")}` : ""}; ${this._t("plan.host", this._bytes(g.host_bytes).text)}`,
          "max-gpu-layers"
        ]);
      }
      const model = plan.model;
      if (model && model.params !== void 0) {
        solved.unshift([
          this._t("plan.params"),
          `${this._num(model.params)} (${this._num(model.active_params)})`,
          "params"
        ]);
        const roles = (model.params_by_role || []).slice(0, 4).map((r) => `${r.role} ${this._num(r.params)}`).join(", ");
        if (roles) solved.splice(1, 0, [this._t("plan.roles"), roles, "params-by-role"]);
      }
      const hints = (plan.hints || []).map((hint) => {
        const changes = patchToState(hint.patch, this._state);
        return h(
          "li",
          {},
          h("strong", {}, hint.change),
          " — ",
          hint.effect,
          " ",
          changes ? this._actionButton(`hint:${hint.change}`, this._t("plan.apply"), this._t("plan.apply-name", hint.change), changes) : null
        );
      });
      const options = (plan.gpu_options || []).map((o) => h(
        "tr",
        {},
        h("th", { scope: "row" }, o.name, " ", (() => {
          const changes = patchToState(o.patch, this._state);
          return changes ? this._actionButton(
            `use:${o.gpu}:${o.count}`,
            this._t("plan.use"),
            this._t("plan.use-name", `${o.count > 1 ? `${o.count} × ` : ""}${o.name}`),
            changes
          ) : null;
        })()),
        h("td", { class: "vb-num" }, this._num(o.count)),
        h("td", { class: "vb-num" }, this._bytes(o.memory_bytes).text),
        h("td", { class: "vb-num" }, this._bytes(o.total_bytes).text),
        h("td", { class: "vb-num" }, o.price_usd_per_hour === null || o.price_usd_per_hour === void 0 ? this._t("plan.no-price") : this._t("plan.price", this._num(o.price_usd_per_hour)))
      ));
      replace(
        out,
        this._heading("plan", this._t("plan.title")),
        h("dl", { class: "vb-metrics" }, solved.map(([label, text, id]) => [h("dt", {}, label), h("dd", { "data-plan": id }, text)])),
        h("h3", {}, this._t("plan.hints")),
        hints.length ? h("ul", { class: "vb-hints" }, hints) : h("p", { class: "vb-help" }, this._t("plan.no-hints")),
        h("h3", {}, this._t("plan.options")),
        options.length ? h("div", { class: "vb-scroll vb-options", tabindex: "0", role: "region", "aria-label": this._t("plan.options-region") }, h(
          "table",
          { class: "vb-table" },
          h("thead", {}, h("tr", {}, ["gpu", "count", "memory", "needed", "price"].map((c) => h("th", { scope: "col" }, this._t(`plan.col.${c}`))))),
          h("tbody", {}, options)
        )) : h("p", { class: "vb-help" }, this._t("plan.no-options"))
      );
    }
    /** The training plan's solvers: seq_len with and without headroom, micro-batch, fewest GPUs. */
    _trainingSolved(plan) {
      const tokens = (n) => n > 0 ? this._t("unit.tokens", this._num(n)) : this._t("plan.no-seq");
      const fewest = plan.fewest_gpus === null ? `${this._t("plan.no-gpus", this._num(plan.fewest_gpus_limit))}${plan.more_gpus_divide ? "" : ` ${this._t("plan.replicates")}`}` : `${this._num(plan.fewest_gpus)}${plan.more_gpus_divide ? ` ${this._t("plan.divides")}` : ""}`;
      return [
        [this._t("plan.max-seq"), tokens(plan.max_seq_len), "max-seq-len"],
        [this._t("plan.max-seq-headroom"), tokens(plan.max_seq_len_with_headroom), "max-seq-len-headroom"],
        [this._t("plan.max-mb"), plan.max_micro_batch > 0 ? this._num(plan.max_micro_batch) : this._t("plan.no-mb"), "max-micro-batch"],
        [this._t("plan.fewest"), fewest, "fewest-gpus"]
      ];
    }
    /** A diffusion fine-tune's plan: the largest micro-batch at the sample size; more GPUs only replicate. */
    _sampleSolved(plan) {
      return [
        [
          this._t("plan.max-mb-sample"),
          plan.max_micro_batch > 0 ? this._num(plan.max_micro_batch) : this._t("plan.no-mb"),
          "max-micro-batch"
        ],
        [this._t("plan.fewest"), this._t("plan.replicated"), "fewest-gpus"]
      ];
    }
    /** The image and video plan's solvers: size at the aspect ratio, frames, batch, fewest GPUs. */
    _generationSolved(plan) {
      const atLimit = (v, limit) => v === limit ? ` ${this._t("plan.search-limit")}` : "";
      const out = [];
      if (plan.max_size !== void 0) {
        const sz = plan.max_size;
        out.push([this._t("plan.max-size"), sz === null ? this._t("plan.no-size") : `${this._t("unit.size", this._num(sz.width), this._num(sz.height))}${atLimit(sz.height, plan.max_size_limit.height)}`, "max-size"]);
      }
      if (plan.max_frames !== void 0) {
        out.push([this._t("plan.max-frames"), plan.max_frames === null ? this._t("plan.no-frames") : `${this._num(plan.max_frames)}${atLimit(plan.max_frames, plan.max_frames_limit)}`, "max-frames"]);
      }
      out.push([this._t("plan.max-batch"), plan.max_batch === null ? this._t("plan.no-mb") : `${this._num(plan.max_batch)}${atLimit(plan.max_batch, plan.max_batch_limit)}`, "max-batch"]);
      out.push([this._t("plan.fewest"), plan.fewest_gpus === null ? `${this._t("plan.no-gpus", this._num(plan.fewest_gpus_limit))}${plan.more_gpus_divide ? "" : ` ${this._t("plan.one-gpu")}`}` : `${this._num(plan.fewest_gpus)}${plan.more_gpus_divide ? ` ${this._t("plan.splits")}` : ""}`, "fewest-gpus"]);
      return out;
    }
    /** A button that applies a plan's patch; its name says what it applies, and
     *  focus comes back to it (or to the plan) once the figures are redrawn. */
    _actionButton(action, text, name, changes) {
      return h("button", {
        type: "button",
        class: "vb-apply",
        "data-action": action,
        "aria-label": name,
        onclick: () => {
          this._focusAction = action;
          this._setState(changes);
        }
      }, text);
    }
  };

  // web/src/views/reconcile.js
  var ReconcileView = class {
    /** A measured or estimated figure in the page's notation. */
    _figure(metric, v) {
      if (v === null || v === void 0) return "—";
      if (metric.endsWith("_bytes")) return `${this._bytes(v).text} (${this._exact(v)})`;
      if (metric.endsWith("_tokens")) return this._t("unit.tokens", this._num(v));
      if (metric === "max_concurrency") return `${this._num(v)}×`;
      return this._num(v);
    }
    /** A relative error: "+4.9 %" (nl "+4,9 %"). */
    _percent(e) {
      return e === null || e === void 0 ? "—" : `${e >= 0 ? "+" : ""}${this._tr.fixed(e * 100, 1)} %`;
    }
    /** The section: a box for the log, a button, the comparison. */
    _reconcileSection() {
      const id = this._newId("reconcile-log");
      this._reconcileLog = h("textarea", {
        id,
        rows: 5,
        spellcheck: "false",
        "data-testid": "reconcile-log",
        placeholder: "INFO ... [gpu_worker.py] Available KV cache memory: 54.32 GiB\n..."
      });
      const run = h("button", { type: "button", class: "vb-apply", "data-testid": "reconcile-run" }, this._t("reconcile.run"));
      run.addEventListener("click", () => this._renderReconcile());
      this._reconcileOut = h("div", { "data-testid": "reconcile-out", "aria-live": "polite" });
      return h(
        "section",
        { "aria-labelledby": this._headingId("reconcile"), "data-testid": "reconcile" },
        this._heading("reconcile", this._t("reconcile.title")),
        h(
          "div",
          { class: "vb-field" },
          h("label", { for: id }, this._t("reconcile.log")),
          this._reconcileLog,
          h("p", { class: "vb-help" }, this._t("reconcile.local"))
        ),
        h("p", {}, run),
        this._reconcileOut
      );
    }
    /** Compares the pasted text with the current scenario (again after each change, once something is pasted). */
    _renderReconcile() {
      if (!this._reconcileOut) return;
      const log = this._reconcileLog.value;
      if (log.trim() === "" || !this.scenario) {
        replace(this._reconcileOut, log.trim() === "" ? null : h("p", { class: "vb-help" }, this._t("reconcile.no-scenario")));
        return;
      }
      const r = call(this._module, "reconcile", log, JSON.stringify(this.scenario));
      if (!r.ok) {
        replace(this._reconcileOut, h(
          "p",
          { class: "vb-field-error", role: "alert", "data-testid": "reconcile-error" },
          r.error.path ? h("code", { class: "vb-path" }, r.error.path) : null,
          r.error.path ? ": " : "",
          this._message(r.error)
        ));
        return;
      }
      const rows = (r.rows || []).map((row) => h(
        "tr",
        { "data-metric": row.metric },
        h("th", { scope: "row" }, h("code", {}, row.metric)),
        h("td", {}, this._figure(row.metric, row.measured)),
        h("td", {}, this._figure(row.metric, row.estimated)),
        h("td", {}, this._percent(row.error), row.in_range === true ? ` ${this._t("reconcile.in-range")}` : row.in_range === false ? ` ${this._t("reconcile.out-of-range")}` : ""),
        h("td", {}, row.meaning || "")
      ));
      const table = h(
        "div",
        { class: "vb-scroll", tabindex: "0", role: "region", "aria-label": this._t("reconcile.region") },
        h(
          "table",
          { class: "vb-table", "data-testid": "reconcile-table" },
          h("thead", {}, h("tr", {}, ["metric", "measured", "estimated", "error", "meaning"].map((c) => h("th", { scope: "col" }, this._t(`reconcile.col.${c}`))))),
          h("tbody", {}, rows)
        )
      );
      const found = h(
        "details",
        {},
        h("summary", {}, this._t("reconcile.found", r.found.length)),
        h("ul", { class: "vb-found" }, r.found.map((f) => h("li", {}, this._t("reconcile.line", this._num(f.line_number)), " ", h("code", {}, f.line))))
      );
      const caseText = JSON.stringify(r.case);
      const accuracyCase = h(
        "details",
        {},
        h("summary", {}, this._t("reconcile.case")),
        h("pre", { class: "vb-code", "data-testid": "reconcile-case", tabindex: "0" }, h("code", {}, caseText))
      );
      replace(
        this._reconcileOut,
        table,
        found,
        accuracyCase,
        r.notes && r.notes.length ? h("ul", { class: "vb-notes" }, r.notes.map((n) => h("li", {}, n))) : null
      );
    }
  };

  // web/src/index.js
  for (const part of [FormMethods, FilesMethods, ReportViews, ChartView, PlanView, ReconcileView]) {
    for (const name of Object.getOwnPropertyNames(part.prototype)) {
      if (name !== "constructor") {
        Object.defineProperty(VramBudgetElement.prototype, name, Object.getOwnPropertyDescriptor(part.prototype, name));
      }
    }
  }
  VramBudgetElement.formatBytes = formatBytes;
  VramBudgetElement.parseQuantity = parseQuantity;
  VramBudgetElement.stateToHash = stateToHash;
  VramBudgetElement.hashToState = hashToState;
  VramBudgetElement.buildScenario = buildScenario;
  VramBudgetElement.translator = translator;
  VramBudgetElement.languages = LANGUAGES;
  window.VramBudgetElement = VramBudgetElement;
  try {
    VramBudgetElement.define();
  } catch (e) {
    if (!(e instanceof DOMException && e.name === "NotSupportedError")) throw e;
  }
})();
