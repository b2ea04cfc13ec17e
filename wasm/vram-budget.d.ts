// The JavaScript contract of web/vram-budget.js (built from wasm/bindings.cpp).
//
// Load it with a classic <script src="vram-budget.js"> (works from file://) or
// require() it in node. Every function takes and returns JSON text and never
// throws: bad input comes back as {"ok": false, "error": {"path", "message"}}.

/** A scenario, CONTRACT v1 section 1 (see shared design docs / README). */
export type ScenarioJson = string;

export interface VramBudgetModule {
  /** Report (CONTRACT v1 section 2): components with formulas, metrics, fit verdict. */
  estimate(scenario: ScenarioJson): string;
  /** Solvers: {ok, max_context_tokens, max_concurrency, smallest_tensor_parallel,
   *  gpu_options: [{gpu, name, count, memory_bytes, total_bytes, price_usd_per_hour}],
   *  hints: [{change, effect, patch}]} */
  plan(scenario: ScenarioJson): string;
  /** Chart data: {ok, contexts: number[], concurrency, totals: number[] (bytes per GPU),
   *  fits: boolean[], usable_bytes, capacity_bytes} */
  sweep(scenario: ScenarioJson): string;
  /** Context × concurrency grid (row-major by concurrency): {ok, points, contexts, concurrencies,
   *  totals: number[] (bytes per GPU), max_fitting_concurrency: number[] (per context), usable_bytes} */
  grid(scenario: ScenarioJson, nContexts: number, nConcurrency: number): string;
  /** Pickers: {ok, models: [{id, params, model_type, max_context, dtype, quantized}],
   *  gpus: [{id, name, vendor, marketing_gb, memory_bytes, memory_source, price_usd_per_hour}],
   *  weight_formats: string[], engines: string[], kv_cache_dtypes: string[]} */
  catalog(): string;
}

declare function createVramBudget(options?: object): Promise<VramBudgetModule>;
export default createVramBudget;
