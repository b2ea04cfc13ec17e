// The JavaScript contract of web/vram-budget.js (built from wasm/bindings.cpp).
//
// Load it with a classic <script src="vram-budget.js"> (works from file://) or
// require() it in node. Every function takes and returns JSON text and never
// throws: bad input comes back as {"ok": false, "error": {"path", "message"}}.
// That holds for any argument: a number, null, a missing argument, text over
// 4 MiB (16 MiB for a log; refused before it is copied into the module), text with a lone UTF-16
// surrogate, JSON nested deeper than 64 levels, duplicate keys, or figures
// beyond 2^53 bytes. The module answers the same after any number of such
// calls, and its memory does not grow with them.

/** A scenario, CONTRACT v1 section 1 (see shared design docs / README). */
export type ScenarioJson = string;

export interface VramBudgetModule {
  /** Report (CONTRACT v1 section 2): components with formulas, metrics, fit verdict. */
  estimate(scenario: ScenarioJson): string;
  /** A pasted vLLM / llama.cpp startup log, `torch.cuda.max_memory_*` prints or a
   *  `torch.cuda.memory_summary()` table (at most 16 MiB) beside the scenario's estimate:
   *  {ok, v, found: [{metric, bytes | value, tolerance, line, line_number, source, device?, lines?}],
   *  rows: [{metric, measured, estimated (null without one), error ((estimated − measured) / measured, or null),
   *  in_range (null without a range), range?: [low, high], tolerance, within_tolerance, meaning}],
   *  case: an accuracy case (CONTRACT section 4), notes: string[]}. Errors name "/log..." or "/scenario...". */
  reconcile(log: string, scenario: ScenarioJson): string;
  /** Solvers: {ok, model, max_context_tokens, max_concurrency, smallest_tensor_parallel,
   *  max_gpu_layers (llama.cpp: {n_gpu_layers, n_layer, host_bytes, ...} or null),
   *  gpu_options: [{gpu, name, count, memory_bytes, total_bytes, price_usd_per_hour, patch}],
   *  hints: [{change, effect, patch}]}.
   *  Training instead: {max_seq_len, max_seq_len_with_headroom, max_micro_batch, more_gpus_divide,
   *  fewest_gpus (or null), fewest_gpus_limit, hints, gpu_options}; fine-tuning a pipeline
   *  (framework diffusers): {max_micro_batch, max_micro_batch_limit, more_gpus_divide: false, hints,
   *  gpu_options}.
   *  Image and video instead: {max_size: {width, height} | null (absent where the pipeline fixes
   *  the area), max_size_limit: {width, height}, max_frames | null and max_frames_limit (video),
   *  max_batch | null, max_batch_limit, more_gpus_divide, fewest_gpus | null, fewest_gpus_limit,
   *  hints, gpu_options}; a value equal to its limit is the top of the search. */
  plan(scenario: ScenarioJson): string;
  /** Chart data: {ok, axis ("context", "seq_len", "height", "frames", "batch" or "micro_batch": a diffusion fine-tune),
   *  contexts: number[] (the axis's values), concurrency (concurrency, micro-batch or batch),
   *  widths?: number[] (axis "height": the width at each height), totals: number[] (bytes per GPU),
   *  fits: boolean[], usable_bytes, capacity_bytes}. The values stop before the first
   *  one whose figures would leave any real system (beyond 2^53 bytes). */
  sweep(scenario: ScenarioJson): string;
  /** Context × concurrency grid (inference; seq_len × micro-batch for training; an error at
   *  /workload for image and video) (row-major by concurrency): {ok, points, contexts, concurrencies,
   *  totals: (number|null)[] (bytes per GPU; null where beyond any real system),
   *  max_fitting_concurrency: number[] (per context), usable_bytes}. 1 to 1,000 of each and at
   *  most 10,000 points; other counts are an error at /n_contexts or /n_concurrency. */
  grid(scenario: ScenarioJson, nContexts: number, nConcurrency: number): string;
  /** Pickers: {ok, model_count, models: [{id, params, model_type, max_context, dtype (the checkpoint's own
   *  format), native_dtype, quantized}],
   *  gpus: [{id, name, vendor, marketing_gb, memory_bytes, memory_source, price_usd_per_hour}],
   *  weight_formats: string[], engines: string[], kv_cache_dtypes: string[],
   *  defaults: {workload, gpu, model (the catalog model shown first), headroom, engine, engines: {<engine>: {fields: string[],
   *  headroom_applies, ...its defaults}}, training: {<setting>: allowed names}, generation: {...},
   *  diffusion_training: {framework, training_fields, generation_fields} (what a pipeline's fine-tune reads)}}.
   *  A face shows these defaults rather than keeping its own. With {models: false} the
   *  list is left out and no model file is read (the first call builds the catalog:
   *  a page that shows an estimate first asks for the models afterwards). */
  catalog(options?: { models?: boolean }): string;
  /** The catalog's models alone: {ok, models: [...]}, as in catalog(). */
  models(): string;
  /** Model files from their headers (safetensors shards, model.safetensors.index.json,
   *  config.json, or one GGUF file). Give each file's first bytes; the answer is
   *  {ok, need: [{name, bytes}]} until every prefix is long enough (safetensors: 8
   *  bytes, then the header and the 8 before it; GGUF: 64 KiB, doubled up to 64 MiB),
   *  then {ok, format, files, tensors, tensor_bytes, by_dtype, architecture, model,
   *  weights?, notes}: `model` is a scenario's model as is. */
  inspect(files: { name: string; size: number; prefix: Uint8Array }[]): string;
  /** A pasted config.json as the core reads one: {ok, config, notes}; Python's json
   *  writes float('inf') and float('nan') as Infinity and NaN, which are read as null
   *  and counted in the notes; anything else not JSON is {ok: false, error}. */
  readConfig(text: string): string;
  /** The same loop over File or Blob objects, reading only the ranges asked for. */
  inspectFiles(files: ArrayLike<Blob & { name: string }>): Promise<object>;
}

declare function createVramBudget(options?: object): Promise<VramBudgetModule>;
export default createVramBudget;
