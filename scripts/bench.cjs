#!/usr/bin/env node
// Speed and size of the WebAssembly build under node: one full estimate
// (JSON in, report JSON out) and a 10,000-point context × concurrency sweep.
// Usage: node scripts/bench.cjs [--json]
//        node scripts/bench.cjs --compare A.js B.js ...   the same estimates from several
//          builds of the module, interleaved in one process (15 rounds of 500 calls each;
//          the fastest round per build), so a machine whose speed wanders between
//          invocations still compares them fairly
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const file = path.resolve(__dirname, '..', 'web', 'vram-budget.js');

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

const SCENARIOS = {
    'Llama-3.1-8B, vLLM, H100': { model: 'meta-llama/Llama-3.1-8B', inference: { context: 8192 } },
    'DeepSeek-V3, vLLM, 8×H200': { model: 'deepseek-ai/DeepSeek-V3', hardware: { gpu: 'H200', count: 8 }, inference: { context: 32768, tensor_parallel: 8 } },
    'Llama-3.1-70B Q4_K_M, llama.cpp': { model: 'meta-llama/Llama-3.1-70B', weights: 'gguf:Q4_K_M', hardware: { gpu: 'RTX-4090', count: 2 },
      inference: { engine: 'llama.cpp', context: 8192, pipeline_parallel: 2 } },
};

/** The fastest of 15 interleaved rounds per build and scenario, in µs per estimate. */
async function compare(files) {
  const mods = [];
  for (const f of files) mods.push(await require(path.resolve(f))());
  const texts = Object.values(SCENARIOS).map((s) => JSON.stringify(s));
  const best = mods.map(() => texts.map(() => Infinity));
  for (const m of mods) for (const t of texts) for (let i = 0; i < 500; i++) m.estimate(t);  // warm up
  for (let round = 0; round < 15; round++) {
    mods.forEach((m, k) => texts.forEach((t, j) => {
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < 500; i++) m.estimate(t);
      best[k][j] = Math.min(best[k][j], Number(process.hrtime.bigint() - t0) / 1e3 / 500);
    }));
  }
  console.log(`${'build'.padEnd(40)} ${Object.keys(SCENARIOS).map((n) => n.padStart(32)).join(' ')}`);
  files.forEach((f, k) => console.log(`${f.padEnd(40)} ${best[k].map((x) => `${x.toFixed(2)} µs`.padStart(32)).join(' ')}`));
}

async function main() {
  const at = process.argv.indexOf('--compare');
  if (at >= 0) return compare(process.argv.slice(at + 1));
  const mod = await require(file)();
  const scenarios = SCENARIOS;
  const results = { module_bytes: fs.statSync(file).size, estimate_us: {}, sweep_10k_ms: {} };
  // Steady state: V8 runs WebAssembly in its baseline compiler first and moves hot
  // functions to its optimising one in the background, which on a loaded 2-core
  // machine can take longer than a few hundred calls. Every scenario is warmed up
  // for at least half a second before any is timed.
  for (const s of Object.values(scenarios)) {
    const text = JSON.stringify(s);
    const until = process.hrtime.bigint() + 500_000_000n;
    for (let i = 0; i < 2000 || process.hrtime.bigint() < until; i++) mod.estimate(text);
  }
  for (const [name, s] of Object.entries(scenarios)) {
    const text = JSON.stringify(s);
    for (let i = 0; i < 200; i++) mod.estimate(text);  // warm up
    const runs = [];
    for (let r = 0; r < 7; r++) {
      const n = 2000;
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < n; i++) mod.estimate(text);
      runs.push(Number(process.hrtime.bigint() - t0) / 1e3 / n);
    }
    results.estimate_us[name] = +median(runs).toFixed(2);
    const sweepRuns = [];
    for (let r = 0; r < 5; r++) {
      const t0 = process.hrtime.bigint();
      const out = JSON.parse(mod.grid(text, 100, 100));
      if (!out.ok || out.points !== 10000) throw new Error('grid failed: ' + JSON.stringify(out).slice(0, 200));
      sweepRuns.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
    results.sweep_10k_ms[name] = +median(sweepRuns).toFixed(2);
  }
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(results, null, 2));
    return;
  }
  console.log(`module: ${results.module_bytes.toLocaleString('en-US')} bytes (single file, wasm embedded)`);
  for (const name of Object.keys(scenarios)) {
    console.log(`${name.padEnd(34)} estimate ${String(results.estimate_us[name]).padStart(8)} µs   10,000-point sweep ${String(results.sweep_10k_ms[name]).padStart(8)} ms`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
