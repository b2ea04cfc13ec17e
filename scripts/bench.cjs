#!/usr/bin/env node
// Speed and size of the WebAssembly build under node: one full estimate
// (JSON in, report JSON out) and a 10,000-point context × concurrency sweep.
// Usage: node scripts/bench.cjs [--json]
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const file = path.resolve(__dirname, '..', 'web', 'vram-budget.js');

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function main() {
  const mod = await require(file)();
  const scenarios = {
    'Llama-3.1-8B, vLLM, H100': { model: 'meta-llama/Llama-3.1-8B', inference: { context: 8192 } },
    'DeepSeek-V3, vLLM, 8×H200': { model: 'deepseek-ai/DeepSeek-V3', hardware: { gpu: 'H200', count: 8 }, inference: { context: 32768, tensor_parallel: 8 } },
    'Llama-3.1-70B Q4_K_M, llama.cpp': { model: 'meta-llama/Llama-3.1-70B', weights: 'gguf:Q4_K_M', hardware: { gpu: 'RTX-4090', count: 2 },
      inference: { engine: 'llama.cpp', context: 8192, pipeline_parallel: 2 } },
  };
  const results = { module_bytes: fs.statSync(file).size, estimate_us: {}, sweep_10k_ms: {} };
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
